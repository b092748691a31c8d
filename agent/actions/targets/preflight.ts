import type { Locator } from '@playwright/test';
import { isSliderLike, readControlState, type ControlState } from '../fields/control-state';
import { isPageGone } from '../core/errors';
import { FAIL_FAST_MS, PAGE_READ_MS } from '../core/limits';
import { describeCover, describeHiddenPlace, readStanding, type Cover } from './obstacles';
import { ActionError } from '../core/types';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Before an action waits the full element timeout: what the page already says (a dialog covers the element,
 * it is hidden in a closed menu, it is disabled or read-only) is said within about a second.
 */

const POLL_MS = 100;

/**
 * Playwright's own pointer checks (visible, enabled, stable, receives the click) as a trial run, briefly. A
 * quick look in the page first spares that trial when the element is plainly usable (most of the time).
 */
export async function ensurePointerReady(locator: Locator, label: string, verb: 'click' | 'hover' | 'drag'): Promise<void> {
  if ((await readStanding(locator, FAIL_FAST_MS)).kind === 'usable') return;
  try {
    if (verb === 'click') await locator.click({ trial: true, timeout: FAIL_FAST_MS });
    else await locator.hover({ trial: true, timeout: FAIL_FAST_MS });
  } catch (error) {
    if (isPageGone(error)) throw error;
    const log = error instanceof Error ? (error.message.split('\nCall log:')[1] ?? '') : '';
    const logged = lastReason(log);
    // A loaded machine can spend the whole trial before its first check: the page is asked directly then, and a
    // cover it names comes with its description.
    const seen = logged ? undefined : await readStanding(locator, PAGE_READ_MS);
    const reason = logged ?? seen?.kind;
    // Anything else (still animating, slow page) gets the action's full wait.
    if (!reason || reason === 'usable' || reason === 'unknown') return;
    const why = await explain(locator, reason, seen?.kind === 'covered' ? seen.cover : undefined);
    if (why === undefined) return;
    throw new ActionError(`Cannot ${verb} ${label}: ${why}`);
  }
}

type Reason = 'covered' | 'hidden' | 'disabled';

const REASONS: Array<[RegExp, Reason]> = [
  [/intercepts pointer events/g, 'covered'],
  [/element is not visible/g, 'hidden'],
  [/element is not enabled|element is disabled/g, 'disabled'],
];

/** The call log holds every retry; the last one is the page as it is now. */
function lastReason(log: string): Reason | undefined {
  let latest: { at: number; reason: Reason } | undefined;
  for (const [pattern, reason] of REASONS) {
    for (const match of log.matchAll(pattern)) if (!latest || match.index > latest.at) latest = { at: match.index, reason };
  }
  return latest?.reason;
}

/**
 * Why the element cannot be used, or undefined when the obstacle is likely to go by itself (a loading veil). A
 * cover already read is not read again.
 */
async function explain(locator: Locator, reason: Reason, known?: Cover): Promise<string | undefined> {
  if (reason === 'covered') {
    const cover = known ?? (await describeCover(locator));
    // Nothing on top any more, or a veil that lifts by itself: the action's own wait will see it through.
    return cover?.lasting ? cover.text : undefined;
  }
  if (reason === 'disabled') return 'it is disabled — fill in what it depends on first, or wait until the page enables it';
  return `it is not visible — ${(await describeHiddenPlace(locator)) ?? 'open the menu, tab or section that holds it, or scroll to it'}`;
}

/**
 * A field text can be typed into, waited for briefly: a disabled or read-only field, a hidden one, or
 * something that is not a text field at all is reported at once with what to do instead.
 */
export async function waitUntilEditable(locator: Locator, label: string): Promise<ControlState> {
  const deadline = Date.now() + FAIL_FAST_MS;
  for (;;) {
    const state = await readControlState(locator, { withValue: false });
    const problem = notEditable(state) ?? (await dialogInTheWay(locator, state));
    if (!problem) return state;
    if (problem.final || Date.now() >= deadline) {
      const where = problem.hidden ? ` — ${(await describeHiddenPlace(locator)) ?? 'open the menu, tab or section that holds it'}` : '';
      throw new ActionError(`Cannot type into ${label}: ${problem.text}${where}`, false, problem.advice);
    }
    await sleep(POLL_MS);
  }
}

interface Problem {
  text: string;
  /** What to do instead, worded for whoever reads it (a recipe's author is never told about refs). */
  advice?: ActionError['advice'];
  /** Waiting will not change it: the element is the wrong kind of control. */
  final?: boolean;
  hidden?: boolean;
}

/**
 * A person cannot type into a field a dialog covers, nor into one a modal dialog made inert (Playwright's fill
 * would type into the first and lose the text in the second, which the page then seems to have refused).
 */
async function dialogInTheWay(locator: Locator, state: ControlState): Promise<Problem | undefined> {
  const standing = await readStanding(locator, FAIL_FAST_MS);
  if (standing.kind === 'covered' && standing.cover.dialog) return { text: standing.cover.text };
  if (state.blockedBy) return { text: `${state.blockedBy} is open and the page behind it is inert — close it first` };
  return undefined;
}

/** Roles a person clicks rather than types into. */
const CLICKED_ROLES = new Set(['button', 'link', 'tab', 'menuitem', 'option', 'treeitem', 'switch']);

function notEditable(state: ControlState): Problem | undefined {
  if (state.tag === 'select') return { text: 'it is a dropdown — use select_option', final: true };
  if (state.inputType === 'checkbox' || state.inputType === 'radio')
    return { text: `it is a ${state.inputType} — use check or uncheck`, final: true };
  if (state.inputType === 'file') return { text: 'it is a file field — use upload', final: true };
  if (!state.textEntry && !isSliderLike(state)) {
    const what = state.role || (state.tag === 'a' ? 'link' : state.tag === 'button' ? 'button' : '');
    if (CLICKED_ROLES.has(what))
      return {
        text: `it is a ${what}, not a text field`,
        advice: { model: 'click it, or type into a textbox of the page state', recipe: 'click it, or point the step at a text field' },
        final: true,
      };
    return {
      text: `it is not a text field (${what || `<${state.tag}>`})`,
      advice: { model: 'type into a textbox or searchbox of the page state (its own ref)', recipe: 'point the step at a textbox or searchbox' },
      final: true,
    };
  }
  if (state.disabled) return { text: 'it is disabled — fill in what it depends on first, or wait until the page enables it' };
  if (state.readOnly) return { text: 'it is read-only — its value is set by another control (a picker, a button or a list next to it)' };
  if (!state.visible) return { text: 'it is not visible', hidden: true };
  return undefined;
}
