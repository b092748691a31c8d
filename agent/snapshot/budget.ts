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
    if (!candidate || chosen[position]) continue;
    const group = [position, ...rowCompanions(candidates, position)].filter((member) => !chosen[member]);
    const cost = group.reduce((sum, member) => sum + (costs[member] ?? 0), 0);
    if (candidate.pinned || used + cost <= options.tokenBudget) {
      for (const member of group) chosen[member] = 1;
      used += cost;
    }
  }
  const kept = withEnclosingFrames(flat, candidates.filter((_, position) => chosen[position]));
  const lines = formatKeptLines(flat, kept, options.keywords);
  return { kept, lines, overBudget: candidates.length - kept.length, lineTokens: used };
}

/**
 * Child-frame lines are printed under their <iframe> line, so the frame of every kept node is kept too.
 * Cheaper than a per-line "(in iframe …)" note, and the nesting shows the same thing.
 */
function withEnclosingFrames(flat: readonly FlatNode[], kept: Candidate[]): Candidate[] {
  const keptIndexes = new Set(kept.map((candidate) => candidate.flat.index));
  const frames: Candidate[] = [];
  for (const candidate of kept) {
    if (!candidate.flat.node.frameRef) continue;
    for (let parent = flat[candidate.flat.parent]; parent; parent = flat[parent.parent]) {
      if (parent.node.role !== 'iframe' || keptIndexes.has(parent.index)) continue;
      keptIndexes.add(parent.index);
      frames.push({ flat: parent, kind: 'container', pinned: false, keyword: false, fromChrome: candidate.fromChrome });
    }
  }
  if (frames.length === 0) return kept;
  return [...kept, ...frames].sort((a, b) => a.flat.index - b.flat.index);
}

/** A table row and the controls inside it enter together: "view" without its row means nothing. */
function rowCompanions(candidates: readonly Candidate[], position: number): number[] {
  const row = candidates[position]?.flat;
  if (!row || row.node.role !== 'row') return [];
  const companions: number[] = [];
  for (let next = position + 1; next < candidates.length; next++) {
    const candidate = candidates[next];
    if (!candidate || candidate.flat.index >= row.end) break;
    if (candidate.kind === 'interactive' || candidate.kind === 'control') companions.push(next);
  }
  return companions;
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
