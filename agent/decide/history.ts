import { historyWeight } from '../actions/registry';
import { estimateTokens } from '../snapshot';
import type { HistoryEntry } from './types';

const KEEP_FULL = 5;
const MIN_ITEMS = 5;
const MAX_ITEMS = 25;

const ARG_CHARS = 80;
const clipArg = (text: string) => (text.length > ARG_CHARS ? `${text.slice(0, ARG_CHARS - 1)}…` : text);

/**
 * Arguments as the history shows them: every one the action was called with, in the order given — the history is
 * the record of what was asked (an extract's `attribute`, a type's text, a screenshot's label), whatever the
 * outcome says. A long value is cut; done's `extracted` is named by its fields (its values are the result).
 */
export function describeArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .map(([key, value]) => {
      if (key === 'extracted' && value && typeof value === 'object') return `${key}={${Object.keys(value).join(', ')}}`;
      return `${key}=${typeof value === 'string' ? JSON.stringify(clipArg(value)) : clipArg(JSON.stringify(value) ?? String(value))}`;
    })
    .join(', ');
}

/** A stale entry keeps what matters later: a screenshot becomes its filename, an extract its size. */
export function compactOutcome(entry: HistoryEntry): string {
  const { result, action } = entry;
  if (!result.success) return `FAILED: ${(result.error ?? result.description).slice(0, 160)}`;
  if (action.name === 'screenshot' && result.effects?.artifact) return `[${result.effects.artifact.filename}]`;
  if (action.name === 'extract' && result.effects?.extracted)
    return `[${result.effects.extracted.field}: ${JSON.stringify(result.effects.extracted.value).length} chars saved]`;
  return result.description.slice(0, 120);
}

const FULL_OUTCOME_CHARS = 400;
/** An entry of the cached history is written once and never changes; past this, its outcome waits in "Last action". */
export const STABLE_OUTCOME_CHARS = 240;

const fullOutcome = (entry: HistoryEntry) =>
  (entry.result.success ? entry.result.description : `FAILED: ${entry.result.error ?? entry.result.description}`).replace(/\s+/g, ' ');

export function formatEntry(entry: HistoryEntry, full: boolean, withReflection: boolean, maxOutcome = FULL_OUTCOME_CHARS): string {
  const outcome = full ? fullOutcome(entry) : compactOutcome(entry).replace(/\s+/g, ' ');
  const reflection =
    withReflection && entry.reflection && (entry.reflection.memory_update || entry.reflection.next_goal)
      ? ` (memory: ${entry.reflection.memory_update ?? '-'}; goal: ${entry.reflection.next_goal ?? '-'})`
      : '';
  const shown = outcome.length > maxOutcome ? `${outcome.slice(0, maxOutcome - 1)}…` : outcome;
  return `Step ${entry.step}: ${entry.action.name}(${describeArgs(entry.action.args)}) → ${shown}${reflection}`;
}

export interface PromptHistory {
  lines: string[];
  /** Every line is written once and never changes: the history can be a cached prefix, appended to each step. */
  stable: boolean;
  /** The latest outcome in full, when its stable line had to cut it. */
  lastInFull?: string;
}

/**
 * The history for the prompt: every entry in one form it keeps for good (so each step reads the earlier ones from
 * the prompt cache), or — past the budget — fitted by importance and recency, which changes as steps are added.
 */
export function promptHistory(entries: readonly HistoryEntry[], budgetTokens: number, withReflection = false): PromptHistory {
  const real = entries.filter(e => !e.meta);
  const lines = real.map(e => formatEntry(e, true, withReflection, STABLE_OUTCOME_CHARS));
  if (lines.reduce((sum, line) => sum + estimateTokens(line), 0) > budgetTokens)
    return { lines: fitHistory(entries, budgetTokens, withReflection), stable: false };
  const last = real[real.length - 1];
  const cut = last !== undefined && fullOutcome(last).length > STABLE_OUTCOME_CHARS;
  return { lines, stable: true, ...(cut ? { lastInFull: formatEntry(last, true, withReflection) } : {}) };
}

/**
 * Budget-fitted history: meta entries are dropped first, the last few stay verbatim, older ones are compacted,
 * and the rest compete on importance × recency ÷ token cost until the budget is spent. Output is chronological.
 */
export function fitHistory(entries: readonly HistoryEntry[], budgetTokens: number, withReflection = false): string[] {
  const real = entries.filter(e => !e.meta);
  const n = real.length;
  const candidates = real.map((entry, index) => {
    const recent = index >= n - KEEP_FULL;
    const line = formatEntry(entry, recent, withReflection);
    const recency = (index + 1) / n;
    const importance = historyWeight(entry.action.name) + (entry.result.success ? 0 : 0.5);
    const cost = estimateTokens(line);
    return { index, line, cost, score: recent ? Number.POSITIVE_INFINITY : ((importance + 0.5) * (0.5 + recency)) / Math.max(1, cost / 40) };
  });
  const chosen = new Set<number>();
  let spent = 0;
  for (const candidate of [...candidates].sort((a, b) => b.score - a.score)) {
    if (chosen.size >= MAX_ITEMS) break;
    if (spent + candidate.cost > budgetTokens && chosen.size >= MIN_ITEMS) continue;
    chosen.add(candidate.index);
    spent += candidate.cost;
  }
  const omitted = n - chosen.size;
  const lines = candidates.filter(c => chosen.has(c.index)).map(c => c.line);
  return omitted > 0 ? [`(${omitted} earlier steps not shown)`, ...lines] : lines;
}
