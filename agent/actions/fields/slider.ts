import type { Locator, Page } from '@playwright/test';
import { findNumber } from '../values/numbers';
import { readControlState, type ControlState } from './control-state';
import { ELEMENT_TIMEOUT_MS } from '../core/limits';
import { stateAfterHandlers } from './shown-value';
import { setTrackHandle } from './track-handle';
import { ActionError } from '../core/types';
import { conventionsOf, readNumber } from '../values/value-formats';

/** Enough for a 0–100 slider moved one step at a time after paging; a bound, not a target. */
const MAX_KEY_PRESSES = 250;
const DRAG_ATTEMPTS = 4;

interface Wanted {
  number?: number;
  /** A slider that names its values (aria-valuetext "Medium"): the text to reach. */
  text?: string;
}

/**
 * A native range takes its value like a typed input; an ARIA slider or spinner is moved the way a person
 * would — arrow keys (Page Up/Down for long ways), or dragging its thumb when it ignores keys — and what it
 * shows afterwards is checked.
 */
export async function setSliderValue(page: Page, locator: Locator, text: string, label: string, signal: AbortSignal): Promise<string> {
  const state = await readControlState(locator);
  if (state.trackPosition !== undefined && state.role !== 'slider') return setTrackHandle(locator, text, label, signal);
  const wanted = wantedValue(state, text, label);
  if (wanted.number !== undefined) checkRange(state, wanted.number, text, label);
  if (state.tag === 'input') {
    await locator.fill(String(wanted.number), { timeout: ELEMENT_TIMEOUT_MS });
    const after = await stateAfterHandlers(locator);
    if (readNumber(after.value) !== wanted.number)
      throw new ActionError(
        `${label} shows ${JSON.stringify(after.value)} after setting ${text} — the page changed it back; look for a message near it`,
      );
    return `Set ${label} to ${after.value}`;
  }
  let how = 'by keyboard';
  let now = await moveByKeys(locator, wanted, state, signal);
  if (!reached(now, wanted) && wanted.number !== undefined && now.moved === false) {
    how = 'by dragging its thumb';
    now = await moveByDrag(page, locator, wanted.number, state, signal);
  }
  if (reached(now, wanted)) return `Set ${label} to ${shown(now.state)} (${how})`;
  const where = now.passed
    ? `it moves in steps and skipped from ${now.passed} — the nearest values are those two`
    : now.names?.length
      ? `its values are ${now.names.map(name => JSON.stringify(name)).join(', ')}`
      : `it stopped at ${shown(now.state)}`;
  throw new ActionError(`Could not set ${label} to ${text}: ${where}`);
}

/**
 * A slider that names its positions (aria-valuetext "256 GB" at aria-valuenow 2) is aimed at by name, unless the
 * text is a plain number it can hold as a position; any other slider by the number.
 */
function wantedValue(state: ControlState, text: string, label: string): Wanted {
  const plain = readNumber(text, conventionsOf({ lang: state.lang }).decimalComma);
  if (namesItsValues(state)) return plain !== undefined && withinRange(state, plain) ? { number: plain } : { text: text.trim() };
  const number = plain ?? findNumber(text)?.value;
  if (number !== undefined) return { number };
  if (state.valueText) return { text: text.trim() };
  throw new ActionError(`Cannot set ${label} to ${JSON.stringify(text)}: it takes a number${rangeText(state)}`);
}

function namesItsValues(state: ControlState): boolean {
  const name = state.valueText?.trim();
  return Boolean(name) && name !== state.value;
}

function withinRange(state: ControlState, value: number): boolean {
  return (state.min === undefined || value >= state.min) && (state.max === undefined || value <= state.max);
}

function checkRange(state: ControlState, value: number, text: string, label: string): void {
  if (!withinRange(state, value)) {
    throw new ActionError(`Cannot set ${label} to ${text}: it goes${rangeText(state)}`);
  }
  const step = state.tag === 'input' ? (state.step === 'any' ? undefined : Number(state.step ?? 1) || 1) : undefined;
  if (step === undefined) return;
  const base = state.min ?? 0;
  const offset = (value - base) / step;
  if (Math.abs(offset - Math.round(offset)) < 1e-9) return;
  const below = base + Math.floor(offset) * step;
  throw new ActionError(
    `Cannot set ${label} to ${text}: it moves in steps of ${step}${rangeText(state)}; the nearest values are ${round(below)} and ${round(below + step)}`,
  );
}

function rangeText(state: ControlState): string {
  return state.min !== undefined && state.max !== undefined ? ` from ${state.min} to ${state.max}` : '';
}

const round = (n: number) => Math.round(n * 1e9) / 1e9;

interface Position {
  state: ControlState;
  /** False when the control never moved (it does not listen to keys). */
  moved?: boolean;
  /** "35 to 40": the two values either side of a wanted value the control cannot hold. */
  passed?: string;
  /** The names a slider showed on its way from one end to the other, in order. */
  names?: string[];
}

function current(state: ControlState): number | undefined {
  return state.value === '' ? undefined : Number(state.value);
}

function shown(state: ControlState): string {
  return state.valueText && state.valueText !== state.value ? `${state.value} (${JSON.stringify(state.valueText)})` : state.value;
}

function reached(position: Position, wanted: Wanted): boolean {
  if (wanted.number !== undefined) return current(position.state) === wanted.number;
  return sameName(position.state.valueText ?? '', wanted.text ?? '');
}

/** "256GB" is "256 GB"; a bare "512" is the name that carries that number ("512 GB"). */
function sameName(shownName: string, wanted: string): boolean {
  const squeeze = (text: string) => text.replace(/\s+/g, '').toLowerCase();
  if (squeeze(shownName) === squeeze(wanted)) return true;
  const bare = readNumber(wanted);
  return bare !== undefined && findNumber(shownName)?.value === bare;
}

async function moveByKeys(locator: Locator, wanted: Wanted, start: ControlState, signal: AbortSignal): Promise<Position> {
  await locator.focus({ timeout: ELEMENT_TIMEOUT_MS });
  const keys = start.role === 'spinbutton' ? { up: 'ArrowUp', down: 'ArrowDown' } : { up: 'ArrowRight', down: 'ArrowLeft' };
  return wanted.number !== undefined
    ? keysToNumber(locator, wanted.number, start, keys, signal)
    : keysToText(locator, wanted.text ?? '', start, keys, signal);
}

interface Keys {
  up: string;
  down: string;
}

async function keysToNumber(locator: Locator, target: number, start: ControlState, keys: Keys, signal: AbortSignal): Promise<Position> {
  let state = start;
  let moved = false;
  let step: number | undefined;
  let paging = true;
  for (let presses = 0; presses < MAX_KEY_PRESSES && !signal.aborted; presses++) {
    const now = current(state);
    if (now === target || now === undefined) break;
    const key = target > now ? keys.up : keys.down;
    // Page Up/Down for the long way, once one arrow press has shown the step.
    const page = paging && step !== undefined && Math.abs(target - now) > 10 * step;
    await locator.press(page ? (key === keys.up ? 'PageUp' : 'PageDown') : key, { timeout: ELEMENT_TIMEOUT_MS });
    const after = await readControlState(locator);
    const value = current(after);
    if (value === now || value === undefined) {
      if (page) {
        paging = false;
        continue;
      }
      break;
    }
    moved = true;
    const crossed = Math.sign(target - now) !== Math.sign(target - value) && value !== target;
    if (page && crossed) paging = false;
    if (!page) step = Math.abs(value - now);
    state = after;
    if (!page && crossed) return { state, moved, passed: `${now} to ${value}` };
  }
  return { state, moved };
}

/** Up to one end, then down to the other, until the name shows; the names passed are kept for the error. */
async function keysToText(locator: Locator, target: string, start: ControlState, keys: Keys, signal: AbortSignal): Promise<Position> {
  let state = start;
  const wanted = { text: target };
  const names = new Map<number, string>();
  const note = (at: ControlState) => {
    const position = current(at);
    if (position !== undefined && at.valueText) names.set(position, at.valueText.trim());
  };
  note(state);
  for (const key of [keys.up, keys.down]) {
    for (let presses = 0; presses < MAX_KEY_PRESSES && !signal.aborted; presses++) {
      if (reached({ state }, wanted)) return { state, moved: true };
      const before = state.value;
      await locator.press(key, { timeout: ELEMENT_TIMEOUT_MS });
      state = await readControlState(locator);
      note(state);
      if (state.value === before) break;
    }
  }
  if (reached({ state }, wanted)) return { state, moved: true };
  return { state, moved: true, names: [...names].sort(([a], [b]) => a - b).map(([, name]) => name) };
}

interface Geometry {
  track: { x: number; y: number; width: number; height: number };
  thumb: { x: number; y: number };
  /** The slider element is the whole track; its thumb is drawn inside it. */
  isTrack: boolean;
}

async function moveByDrag(page: Page, locator: Locator, value: number, start: ControlState, signal: AbortSignal): Promise<Position> {
  if (start.min === undefined || start.max === undefined || start.max <= start.min) {
    throw new ActionError(
      'It ignores the arrow keys and does not say its range (aria-valuemin/max), so it cannot be dragged to a value — click on its track or look for buttons beside it',
    );
  }
  let state = start;
  let aim = value;
  for (let attempt = 0; attempt < DRAG_ATTEMPTS && !signal.aborted; attempt++) {
    const geometry = await locator.evaluate(sliderGeometry, undefined, { timeout: ELEMENT_TIMEOUT_MS });
    const along = (n: number) => geometry.track.x + Math.min(1, Math.max(0, (n - start.min!) / (start.max! - start.min!))) * geometry.track.width;
    const y = geometry.track.y + geometry.track.height / 2;
    const from = geometry.isTrack ? { x: along(current(state) ?? start.min), y } : geometry.thumb;
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(along(aim), y, { steps: 8 });
    await page.mouse.up();
    state = await stateAfterHandlers(locator);
    const now = current(state);
    if (now === value || now === undefined) break;
    // Thumbs are not points: aim past the error by what it was.
    aim += value - now;
  }
  return { state, moved: true };
}

/** Runs in the page: the track is the slider itself when it is wide, else the nearest wide ancestor (the slider is its thumb). */
function sliderGeometry(el: Element): Geometry {
  el.scrollIntoView({ block: 'center', inline: 'center' });
  const box = el.getBoundingClientRect();
  let track = box;
  const isTrack = box.width >= 3 * box.height;
  if (!isTrack) {
    for (let node = el.parentElement, depth = 0; node && depth < 3; node = node.parentElement, depth++) {
      const candidate = node.getBoundingClientRect();
      if (candidate.width >= 3 * Math.max(box.width, 1)) {
        track = candidate;
        break;
      }
    }
  }
  return {
    track: { x: track.left, y: track.top, width: track.width, height: track.height },
    thumb: { x: box.left + box.width / 2, y: box.top + box.height / 2 },
    isTrack,
  };
}
