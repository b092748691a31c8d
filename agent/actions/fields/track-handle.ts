import type { Locator } from '@playwright/test';
import { ELEMENT_TIMEOUT_MS } from '../core/limits';
import { ActionError } from '../core/types';
import { readNumber } from '../values/value-formats';

/** Enough for a 0–100 track moved one step at a time; a bound, not a target. */
const MAX_KEY_PRESSES = 120;
const PERCENT = /^\s*(\d+(?:[.,]\d+)?)\s*%\s*$/;

/**
 * A slider drawn as a bare handle on a track (no role, no value attribute): a person moves it with the arrow keys
 * and reads its value where the page prints it, beside the slider. So a number is reached by pressing the keys until
 * the number beside it that follows the handle shows it; "60%" is a place along the track.
 */
export async function setTrackHandle(locator: Locator, text: string, label: string, signal: AbortSignal): Promise<string> {
  const percent = PERCENT.exec(text);
  const wanted = percent ? Number(percent[1]!.replace(',', '.')) : readNumber(text);
  if (wanted === undefined)
    throw new ActionError(
      `Cannot set ${label} to ${JSON.stringify(text)}: it is a slider handle with no value of its own — give the number the page shows beside it, or a place along its track ("40%")`,
    );
  await locator.focus({ timeout: ELEMENT_TIMEOUT_MS });
  return percent ? toPercent(locator, wanted, label, signal) : toShownNumber(locator, wanted, label, signal);
}

interface Reading {
  position: number;
  /** The short text beside the slider (its label line, its value). */
  beside: string;
}

async function toPercent(locator: Locator, wanted: number, label: string, signal: AbortSignal): Promise<string> {
  let reading = await readHandle(locator);
  for (let presses = 0; presses < MAX_KEY_PRESSES && !signal.aborted; presses++) {
    const gap = wanted - reading.position;
    if (Math.abs(gap) < 1) break;
    const key = gap > 0 ? 'ArrowRight' : 'ArrowLeft';
    const next = await press(locator, key);
    // At an end of the track.
    if (next.position === reading.position) break;
    const crossed = Math.sign(wanted - next.position) !== Math.sign(gap) && next.position !== wanted;
    // It moves in steps: of the two places either side, the nearer one.
    if (crossed && Math.abs(gap) < Math.abs(wanted - next.position)) {
      reading = await press(locator, key === 'ArrowRight' ? 'ArrowLeft' : 'ArrowRight');
      break;
    }
    reading = next;
    if (crossed) break;
  }
  const beside = reading.beside ? ` — beside it: ${JSON.stringify(reading.beside)}` : '';
  return `Set ${label} to ${reading.position}% of its track, by keyboard${beside}`;
}

/** Which number beside the slider follows the handle is learnt from the first key press; then the keys walk it to the number. */
async function toShownNumber(locator: Locator, wanted: number, label: string, signal: AbortSignal): Promise<string> {
  const start = await readHandle(locator);
  let key = 'ArrowRight';
  let after = await press(locator, key);
  if (after.position === start.position) {
    key = 'ArrowLeft';
    after = await press(locator, key);
  }
  const slot = followingNumber(start.beside, after.beside);
  if (slot === undefined)
    throw new ActionError(
      `Cannot set ${label} to ${wanted}: no number beside it follows the handle${start.beside ? ` (beside it: ${JSON.stringify(start.beside)})` : ''} — give a place along its track ("40%"), or press ArrowRight / ArrowLeft on it and read the page`,
    );
  const valueOf = (reading: Reading) => numbersIn(reading.beside)[slot];
  const rising = (valueOf(after) ?? 0) > (numbersIn(start.beside)[slot] ?? 0) === (key === 'ArrowRight');
  let reading = after;
  for (let presses = 0; presses < MAX_KEY_PRESSES && !signal.aborted; presses++) {
    const value = valueOf(reading);
    if (value === undefined || value === wanted) break;
    const up = wanted > value === rising;
    const next = await press(locator, up ? 'ArrowRight' : 'ArrowLeft');
    const moved = valueOf(next);
    if (moved === undefined || moved === value) {
      reading = next;
      break;
    }
    if (Math.sign(wanted - value) !== Math.sign(wanted - moved) && moved !== wanted)
      throw new ActionError(
        `Could not set ${label} to ${wanted}: it moves in steps and went from ${value} to ${moved} — the nearest values are those two`,
      );
    reading = next;
  }
  if (valueOf(reading) !== wanted)
    throw new ActionError(`Could not set ${label} to ${wanted}: it stopped at ${valueOf(reading)} (beside it: ${JSON.stringify(reading.beside)})`);
  return `Set ${label} to ${wanted} as the text beside it shows (${JSON.stringify(reading.beside)}), by keyboard`;
}

async function press(locator: Locator, key: string): Promise<Reading> {
  await locator.press(key, { timeout: ELEMENT_TIMEOUT_MS });
  return readHandle(locator);
}

/** The position of the one number that changed between two readings of the text beside the slider. */
function followingNumber(before: string, after: string): number | undefined {
  const a = numbersIn(before);
  const b = numbersIn(after);
  if (a.length !== b.length) return undefined;
  const changed = a.flatMap((value, index) => (value !== b[index] ? [index] : []));
  return changed.length === 1 ? changed[0] : undefined;
}

function numbersIn(text: string): number[] {
  return (text.match(/-?\d+(?:[.,]\d+)?/g) ?? []).map(token => Number(token.replace(',', '.')));
}

function readHandle(locator: Locator): Promise<Reading> {
  return locator.evaluate(
    el => {
      const track = (el.parentElement ?? el).getBoundingClientRect();
      const own = el.getBoundingClientRect();
      const position = Math.round(((own.left + own.width / 2 - track.left) / Math.max(1, track.width)) * 100);
      // The short texts around the slider that hold a number: its own label line or a value read-out.
      const textOf = (node: Element | null | undefined) =>
        node ? ((node as HTMLElement).innerText || node.textContent || '').replace(/\s+/g, ' ').trim() : '';
      const near = (node: Element | null | undefined) => {
        const text = textOf(node);
        return text && text.length <= 80 && /\d/.test(text) ? text : '';
      };
      let beside = '';
      for (let node: Element | null = el, level = 0; node && level < 3 && !beside; node = node.parentElement, level++) {
        beside = near(node.previousElementSibling) || near(node.nextElementSibling);
      }
      return { position, beside };
    },
    undefined,
    { timeout: ELEMENT_TIMEOUT_MS },
  );
}
