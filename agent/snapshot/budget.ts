import type { Block } from './blocks';
import type { Candidate } from './select-candidates';

/**
 * The budget closes blocks (blocks.ts) into one-line stubs until the page state fits: each time the open
 * block whose lines are worth least per token saved (scores: controls > links > headings > text, +viewport,
 * +keyword, +new, +asked for). Pinned lines are charged like any other and stay printed under their stub.
 * If the page does not fit even as one stub and its pinned lines, the caller unpins the least important
 * pins and tries again — the budget is never exceeded.
 */

/** The last stretch, as a share of the budget, in which one block closing the whole gap is preferred. */
export const FINISHER_SHARE = 0.25;

export interface FitInput {
  candidates: readonly Candidate[];
  blocks: readonly Block[];
  /** Blocks that start closed (regions collapsed by default), by block id. */
  startClosed: ReadonlySet<number>;
  /** Estimated tokens of each candidate's line (indentation and newline included), by candidate position. */
  lineCost: readonly number[];
  /** Estimated tokens of each block's stub line, by block id. */
  stubCost: readonly number[];
  budget: number;
  /** Pinned candidates, by position (the caller may unpin some and fit again). */
  pinned: Uint8Array;
}

export interface FitOutcome {
  /** Closed blocks by id (a closed block inside a closed block prints nothing of its own). */
  closed: Uint8Array;
  /** False when even the whole page as one stub plus its pinned lines is over the budget. */
  fits: boolean;
  tokens: number;
}

export function fitBlocks(input: FitInput): FitOutcome {
  const { blocks, candidates, lineCost, stubCost, pinned } = input;
  const count = blocks.length;
  const closed = new Uint8Array(count);
  const ownCost = new Float64Array(count);
  const ownValue = new Float64Array(count);
  const ownPinnedCost = new Float64Array(count);
  const pinnedCost = new Float64Array(count);
  // A block holding what the agent expanded is never the one-shot finisher: it was asked for by name.
  const holdsFocus = new Uint8Array(count);
  const openCost = new Float64Array(count);
  const value = new Float64Array(count);
  for (const block of blocks) {
    for (const position of block.own) {
      ownCost[block.id] = (ownCost[block.id] ?? 0) + (lineCost[position] ?? 0);
      if (candidates[position]?.focused) holdsFocus[block.id] = 1;
      if (pinned[position]) ownPinnedCost[block.id] = (ownPinnedCost[block.id] ?? 0) + (lineCost[position] ?? 0);
      else ownValue[block.id] = (ownValue[block.id] ?? 0) + Math.max(0.1, candidates[position]?.score ?? 0);
    }
  }
  const visibleCost = (id: number) => (closed[id] ? (stubCost[id] ?? 0) + (pinnedCost[id] ?? 0) : (openCost[id] ?? 0));
  // Children are created after their parents, so a reverse walk sees every child before its parent.
  for (let id = count - 1; id >= 0; id--) {
    const block = blocks[id] as Block;
    if (input.startClosed.has(id)) closed[id] = 1;
    pinnedCost[id] = ownPinnedCost[id] ?? 0;
    let cost = ownCost[id] ?? 0;
    let worth = ownValue[id] ?? 0;
    for (const child of block.children) {
      if (holdsFocus[child]) holdsFocus[id] = 1;
      pinnedCost[id] = (pinnedCost[id] ?? 0) + (pinnedCost[child] ?? 0);
      cost += visibleCost(child);
      if (!closed[child]) worth += value[child] ?? 0;
    }
    openCost[id] = cost;
    value[id] = worth;
  }
  let total = visibleCost(0);
  const saving = (id: number) => (openCost[id] ?? 0) - (stubCost[id] ?? 0) - (pinnedCost[id] ?? 0);
  const keyOf = (id: number) => (value[id] ?? 0) / Math.max(saving(id), 1e-9);
  const heap = new MinHeap();
  for (let id = 1; id < count; id++) if (!closed[id] && saving(id) > 0) heap.push(keyOf(id), -saving(id), id);

  const hasClosedAncestor = (id: number) => {
    for (let parent = blocks[id]?.parent ?? -1; parent >= 0; parent = blocks[parent]?.parent ?? -1) if (closed[parent]) return true;
    return false;
  };
  const isOpen = (id: number) => !closed[id] && !hasClosedAncestor(id);
  const close = (id: number) => {
    const saved = saving(id);
    const lost = value[id] ?? 0;
    closed[id] = 1;
    total -= saved;
    for (let parent = blocks[id]?.parent ?? -1; parent >= 0; parent = blocks[parent]?.parent ?? -1) {
      openCost[parent] = (openCost[parent] ?? 0) - saved;
      value[parent] = (value[parent] ?? 0) - lost;
    }
  };
  while (total > input.budget) {
    // Near the end, once one block can close the gap on its own, the one losing least does — not the best
    // ratio, which may be a whole container when a small part of it would do.
    const gap = total - input.budget;
    const finisher =
      gap <= input.budget * FINISHER_SHARE ? cheapestFinisher(count, gap, saving, value, id => isOpen(id) && !holdsFocus[id]) : undefined;
    if (finisher !== undefined) {
      close(finisher);
      break;
    }
    const top = heap.pop();
    if (!top) break;
    const id = top.id;
    if (!isOpen(id) || saving(id) <= 0) continue;
    const key = keyOf(id);
    if (Math.abs(key - top.key) > 1e-9 || Math.abs(-saving(id) - top.tie) > 1e-9) {
      heap.push(key, -saving(id), id);
      continue;
    }
    close(id);
  }
  if (total > input.budget) {
    closed.fill(0);
    closed[0] = 1;
    total = (stubCost[0] ?? 0) + (pinnedCost[0] ?? 0);
  }
  total = refill({
    blocks,
    closed,
    ownCost,
    ownValue,
    ownPinnedCost,
    stubCost,
    total,
    budget: input.budget,
    hasClosedAncestor,
    startClosed: input.startClosed,
  });
  return { closed, fits: total <= input.budget, tokens: total };
}

interface RefillState {
  blocks: readonly Block[];
  closed: Uint8Array;
  ownCost: Float64Array;
  ownValue: Float64Array;
  ownPinnedCost: Float64Array;
  stubCost: readonly number[];
  total: number;
  budget: number;
  hasClosedAncestor: (id: number) => boolean;
  /** Collapsed by design (site chrome), not for room: never reopened here. */
  startClosed: ReadonlySet<number>;
}

/**
 * Closing stops at the first block that makes the page fit, which may free far more than needed. The room
 * left is filled back top-down: a closed block opens one level (its own lines show, its sub-blocks become
 * stubs) when that still fits, the most valuable lines per token first.
 */
function refill(state: RefillState): number {
  const { blocks, closed, ownCost, ownValue, ownPinnedCost, stubCost } = state;
  let total = state.total;
  const delta = (id: number) => {
    const block = blocks[id] as Block;
    let cost = (ownCost[id] ?? 0) - (ownPinnedCost[id] ?? 0) - (stubCost[id] ?? 0);
    // After opening, every sub-block prints its own stub (those closed before were hidden in this one's).
    for (const child of block.children) cost += stubCost[child] ?? 0;
    return cost;
  };
  const heap = new MinHeap();
  const offer = (id: number) => heap.push(-(ownValue[id] ?? 0) / Math.max(delta(id), 1e-9), delta(id), id);
  for (let id = 0; id < blocks.length; id++) if (closed[id] && !state.hasClosedAncestor(id)) offer(id);
  for (let top = heap.pop(); top; top = heap.pop()) {
    const id = top.id;
    if (!closed[id] || state.hasClosedAncestor(id) || state.startClosed.has(id)) continue;
    const extra = delta(id);
    if (total + extra > state.budget) continue;
    closed[id] = 0;
    total += extra;
    for (const child of (blocks[id] as Block).children) {
      closed[child] = 1;
      offer(child);
    }
  }
  return total;
}

function cheapestFinisher(
  count: number,
  gap: number,
  saving: (id: number) => number,
  value: Float64Array,
  isOpen: (id: number) => boolean,
): number | undefined {
  let best: number | undefined;
  for (let id = 1; id < count; id++) {
    if (saving(id) < gap || !isOpen(id)) continue;
    if (best === undefined || (value[id] ?? 0) < (value[best] ?? 0) || ((value[id] ?? 0) === (value[best] ?? 0) && saving(id) < saving(best)))
      best = id;
  }
  return best;
}

/** A binary heap ordered by key, then tie (both ascending). */
class MinHeap {
  private readonly items: Array<{ key: number; tie: number; id: number }> = [];

  push(key: number, tie: number, id: number): void {
    const items = this.items;
    items.push({ key, tie, id });
    let at = items.length - 1;
    while (at > 0) {
      const up = (at - 1) >> 1;
      if (!this.less(at, up)) break;
      [items[at], items[up]] = [items[up] as (typeof items)[number], items[at] as (typeof items)[number]];
      at = up;
    }
  }

  pop(): { key: number; tie: number; id: number } | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (!top || !last || items.length === 0) return top;
    items[0] = last;
    let at = 0;
    for (;;) {
      const left = at * 2 + 1;
      const right = left + 1;
      let smallest = at;
      if (left < items.length && this.less(left, smallest)) smallest = left;
      if (right < items.length && this.less(right, smallest)) smallest = right;
      if (smallest === at) break;
      [items[at], items[smallest]] = [items[smallest] as (typeof items)[number], items[at] as (typeof items)[number]];
      at = smallest;
    }
    return top;
  }

  private less(a: number, b: number): boolean {
    const left = this.items[a];
    const right = this.items[b];
    if (!left || !right) return false;
    return left.key !== right.key ? left.key < right.key : left.tie < right.tie;
  }
}
