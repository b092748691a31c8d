import type { Candidate } from './prune';
import type { FlatNode } from './raw';
import { formatNodeLine } from './serialize';
import { estimateTokens } from './tokens';

/**
 * Pass 4: fit the candidates into the token budget. Pinned candidates always go in; the rest enter by
 * score (viewport bonus included, so on-screen content wins ties), earlier nodes first among equals.
 * The output keeps document order and indents each line by its number of kept ancestors.
 */

export interface BudgetOptions {
  tokenBudget: number;
  keywords: readonly string[];
}

export interface BudgetResult {
  kept: Candidate[];
  lines: string[];
  /** Candidates that passed pruning but did not fit. */
  overBudget: number;
  lineTokens: number;
}

/** Newline plus typical indentation, on top of the line's own estimate. */
const LINE_OVERHEAD_TOKENS = 1;

export function fitToBudget(flat: readonly FlatNode[], candidates: readonly Candidate[], options: BudgetOptions): BudgetResult {
  const costs = candidates.map((candidate) => lineCost(candidate, options.keywords));
  const order = candidates.map((_, position) => position).sort((a, b) => compareForBudget(candidates, a, b));
  const chosen = new Uint8Array(candidates.length);
  let used = 0;
  for (const position of order) {
    const candidate = candidates[position];
    const cost = costs[position] ?? 0;
    if (!candidate) continue;
    if (candidate.pinned || used + cost <= options.tokenBudget) {
      chosen[position] = 1;
      used += cost;
    }
  }
  const kept = candidates.filter((_, position) => chosen[position]);
  const lines = formatKeptLines(flat, kept, options.keywords);
  return { kept, lines, overBudget: candidates.length - kept.length, lineTokens: used };
}

function compareForBudget(candidates: readonly Candidate[], a: number, b: number): number {
  const left = candidates[a];
  const right = candidates[b];
  if (!left || !right) return 0;
  if (left.pinned !== right.pinned) return left.pinned ? -1 : 1;
  const byScore = right.flat.node.score - left.flat.node.score;
  return byScore !== 0 ? byScore : left.flat.index - right.flat.index;
}

function lineCost(candidate: Candidate, keywords: readonly string[]): number {
  const line = formatNodeLine(candidate.flat.node, { depth: 0, keywords, showLandmark: candidate.fromChrome });
  return estimateTokens(line) + LINE_OVERHEAD_TOKENS;
}

function formatKeptLines(flat: readonly FlatNode[], kept: readonly Candidate[], keywords: readonly string[]): string[] {
  const keptMask = new Uint8Array(flat.length);
  for (const candidate of kept) keptMask[candidate.flat.index] = 1;
  return kept.map((candidate) => {
    let depth = 0;
    for (let parent = flat[candidate.flat.parent]; parent; parent = flat[parent.parent]) {
      if (keptMask[parent.index]) depth++;
    }
    return formatNodeLine(candidate.flat.node, { depth, keywords, showLandmark: candidate.fromChrome });
  });
}
