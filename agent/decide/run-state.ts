import type { HistoryEntry } from './types';

/** What a page kept when an action "changed nothing": the loop compares page signatures (URL, scroll, every node's words, values and states). */
export const UNCHANGED = 'same URL, text, values and states';

const LIST_CAP = 10;
const BLOCKED_AFTER_FAILURES = 2;
const DEAD_END_REPEATS = 3;

export interface RunState {
  pagesVisited: string[];
  failedUrls: string[];
  blockedTargets: string[];
  deadEnds: string[];
  exhaustedPages: string[];
}

const targetKey = (entry: HistoryEntry): string | undefined => {
  const target = entry.action.args.target;
  if (target === undefined) return undefined;
  return typeof target === 'string' ? target : JSON.stringify(target);
};

const shortUrl = (url: string): string => url.replace(/^https?:\/\//, '');

function pushUnique(list: string[], value: string): void {
  const index = list.indexOf(value);
  if (index !== -1) list.splice(index, 1);
  list.push(value);
}

/**
 * Derived from the history alone (pure): what the agent should skip, retry elsewhere, or consider finished. A dead
 * end is an action taken again and again on one unchanged page state, none of them changing what the page shows;
 * once the page has changed (`currentPage`, the signature of the page state now shown), the dead ends of the page as
 * it was are no longer listed.
 */
export function deriveRunState(history: readonly HistoryEntry[], currentPage?: string): RunState {
  const state: RunState = { pagesVisited: [], failedUrls: [], blockedTargets: [], deadEnds: [], exhaustedPages: [] };
  const failuresByTarget = new Map<string, number>();
  const repeats = new Map<string, number>();
  for (const entry of history) {
    if (entry.meta) continue;
    const { action, result } = entry;
    if (result.success && entry.url && !entry.url.startsWith('about:')) pushUnique(state.pagesVisited, shortUrl(entry.url.split('#')[0]!));
    if (!result.success && action.name === 'goto' && typeof action.args.url === 'string') pushUnique(state.failedUrls, shortUrl(action.args.url));
    if (result.success && /HTTP [45]\d\d/.test(result.description) && typeof action.args.url === 'string')
      pushUnique(state.failedUrls, shortUrl(action.args.url));
    const target = targetKey(entry);
    if (!result.success && target) {
      const failures = (failuresByTarget.get(target) ?? 0) + 1;
      failuresByTarget.set(target, failures);
      if (failures === BLOCKED_AFTER_FAILURES) pushUnique(state.blockedTargets, `${action.name} ${target}`);
    }
    // Without a look at the page it acted on (the rest of a batch, a recipe) nothing says the page stayed the same;
    // an action that changed what the page shows beyond its words (a class, a drawing) did change it.
    const changedPage = result.success && result.shownChange !== undefined;
    if (entry.page !== undefined && !changedPage && (currentPage === undefined || entry.page === currentPage)) {
      const repeatKey = `${action.name} ${target ?? JSON.stringify(action.args)} on ${shortUrl(entry.url)}`;
      const count = (repeats.get(`${entry.page}\u0000${repeatKey}`) ?? 0) + 1;
      repeats.set(`${entry.page}\u0000${repeatKey}`, count);
      if (count === DEAD_END_REPEATS) pushUnique(state.deadEnds, repeatKey);
    }
    if (result.success && action.name === 'save_progress') pushUnique(state.exhaustedPages, shortUrl(entry.url.split('#')[0]!));
  }
  return state;
}

function capped(label: string, items: readonly string[]): string | undefined {
  if (items.length === 0) return undefined;
  const shown = items.slice(-LIST_CAP);
  const more = items.length > shown.length ? ` (${items.length} in total; last ${shown.length} shown)` : '';
  return `${label}${more}: ${shown.join(', ')}`;
}

export function renderRunState(state: RunState): string[] {
  return [
    // One page is the page the state already shows: the list says something only once the agent has moved on.
    state.pagesVisited.length > 1 ? capped('Pages visited', state.pagesVisited) : undefined,
    capped('FAILED URLs (skip these)', state.failedUrls),
    capped('BLOCKED targets (failed twice — do not retry)', state.blockedTargets),
    capped(`DEAD ENDS (repeated ${DEAD_END_REPEATS} times on this page while it stayed the same: ${UNCHANGED})`, state.deadEnds),
    capped('Exhausted pages (data already saved)', state.exhaustedPages),
  ].filter((line): line is string => line !== undefined);
}
