import type { Candidate } from './select-candidates';
import type { FlatNode } from './raw';
import { INTERACTIVE_ROLES } from './roles';

/**
 * The units the budget opens and closes: every container with a ref and at least two lines in it (a
 * landmark, a list, a table, a card, a section), plus runs of siblings when a container has too many
 * children to close one by one (a 2,000-paragraph page closes what is above and below the view in two
 * stubs, not 2,000). Controls are never containers: a link with an icon inside is one line.
 */

export interface Block {
  id: number;
  kind: 'region' | 'run';
  /** Flat index of the container (region) or of the first sibling (run). */
  index: number;
  end: number;
  /** The ref its stub prints: the container's, or the first ref in the run. */
  ref: string;
  parent: number;
  children: number[];
  /** Candidate positions whose line belongs directly to this block. */
  own: number[];
  /** For a run: how many siblings of its parent it spans. */
  siblings: number;
}

export const CHUNK_SIZE = 10;
export const CHUNK_MAX = 15;
/** The most siblings the part in view keeps as one unit. */
export const CHUNK_WINDOW_MAX = 30;

export function buildBlocks(flat: readonly FlatNode[], candidates: readonly Candidate[], collapsed: ReadonlySet<number>): Block[] {
  const positionAt = new Int32Array(flat.length).fill(-1);
  candidates.forEach((candidate, position) => (positionAt[candidate.flat.index] = position));
  const prefix = new Uint32Array(flat.length + 1);
  const focusedPrefix = new Uint32Array(flat.length + 1);
  for (let index = 0; index < flat.length; index++) {
    const position = positionAt[index] ?? -1;
    prefix[index + 1] = (prefix[index] ?? 0) + (position !== -1 ? 1 : 0);
    focusedPrefix[index + 1] = (focusedPrefix[index] ?? 0) + (position !== -1 && candidates[position]?.focused ? 1 : 0);
  }
  const count = (item: FlatNode) => (prefix[item.end] ?? 0) - (prefix[item.index] ?? 0);
  const holdsFocus = (item: FlatNode) => (focusedPrefix[item.end] ?? 0) > (focusedPrefix[item.index] ?? 0);
  const blocks: Block[] = [];
  const firstRef = flat.find(item => item.node.ref)?.node.ref ?? 'e1';
  const root: Block = { id: 0, kind: 'region', index: 0, end: flat.length, ref: firstRef, parent: -1, children: [], own: [], siblings: 0 };
  blocks.push(root);

  const addBlock = (block: Omit<Block, 'id' | 'children' | 'own'>): Block => {
    const created: Block = { ...block, id: blocks.length, children: [], own: [] };
    blocks.push(created);
    blocks[block.parent]?.children.push(created.id);
    return created;
  };

  const isBlockRoot = (item: FlatNode): boolean => {
    if (!item.node.ref || INTERACTIVE_ROLES.has(item.node.role)) return false;
    if (collapsed.has(item.index)) return count(item) >= 1;
    if (count(item) < 2) return false;
    if (positionAt[item.index] !== -1) return true;
    const bearing = childrenOf(flat, item).filter(child => count(child) > 0);
    return bearing.length > 1;
  };

  const visitItem = (item: FlatNode, parent: Block): void => {
    if (count(item) === 0) return;
    const position = positionAt[item.index] ?? -1;
    if (isBlockRoot(item)) {
      const block = addBlock({ kind: 'region', index: item.index, end: item.end, ref: item.node.ref as string, parent: parent.id, siblings: 0 });
      if (position !== -1) block.own.push(position);
      visitSiblings(childrenOf(flat, item), block);
      return;
    }
    if (position !== -1) parent.own.push(position);
    visitSiblings(childrenOf(flat, item), parent);
  };

  const addRun = (items: FlatNode[], parent: Block): Block => {
    const first = items[0] as FlatNode;
    const last = items.at(-1) as FlatNode;
    const ref = items.find(item => item.node.ref)?.node.ref ?? firstRefIn(flat, first.index, last.end) ?? parent.ref;
    return addBlock({ kind: 'run', index: first.index, end: last.end, ref, parent: parent.id, siblings: items.length });
  };

  /**
   * A long list is split around the part the agent expanded, else the part in view: the siblings before it close
   * from the top (nested prefixes), the ones after it from the bottom (nested suffixes), so however much is
   * closed, each side is one stub — and what was asked for is never only reachable through everything above it.
   */
  const visitSiblings = (items: FlatNode[], parent: Block): void => {
    const bearing = items.filter(item => count(item) > 0);
    if (bearing.length <= CHUNK_MAX) {
      for (const item of bearing) visitItem(item, parent);
      return;
    }
    const asked = bearing.findIndex(holdsFocus);
    const focus =
      asked !== -1
        ? asked
        : Math.max(
            0,
            bearing.findIndex(item => item.node.inViewport && item.node.box !== undefined),
          );
    let headParent = parent;
    const headBounds = chainBounds(focus, -1);
    for (let j = 0; j < headBounds.length; j++) {
      const end = headBounds[j] as number;
      const next = headBounds[j + 1] ?? 0;
      const head = addRun(bearing.slice(0, end), headParent);
      for (const item of bearing.slice(next, end)) visitItem(item, head);
      headParent = head;
    }
    let lastInView = focus;
    if (asked === -1)
      bearing.forEach((item, at) => {
        if (item.node.inViewport && item.node.box !== undefined) lastInView = at;
      });
    // The part in view stays one unit, up to a screenful: a 300-link menu laid out in a grid is all "in view".
    const windowEnd = Math.min(bearing.length, focus + CHUNK_WINDOW_MAX, Math.max(focus + CHUNK_SIZE, lastInView + 1));
    for (const item of bearing.slice(focus, windowEnd)) visitItem(item, parent);
    let tailParent = parent;
    const tailBounds = chainBounds(windowEnd, bearing.length);
    for (let j = 0; j < tailBounds.length; j++) {
      const start = tailBounds[j] as number;
      const next = tailBounds[j + 1] ?? bearing.length;
      const tail = addRun(bearing.slice(start), tailParent);
      for (const item of bearing.slice(start, next)) visitItem(item, tail);
      tailParent = tail;
    }
  };

  visitSiblings(
    flat.filter(item => item.parent === -1),
    root,
  );
  return blocks;
}

/**
 * Where the nested runs start, walking away from `from` (towards 0 when `to` is -1, else towards `to`):
 * every 10 siblings at first, then in doubling steps, so a 10,000-item list has a few dozen runs.
 */
function chainBounds(from: number, to: number): number[] {
  const bounds: number[] = [];
  let step = CHUNK_SIZE;
  if (to === -1) {
    for (let at = from; at > 0; at -= step, step = bounds.length >= CHUNK_SIZE ? step * 2 : step) bounds.push(at);
  } else {
    for (let at = from; at < to; at += step, step = bounds.length >= CHUNK_SIZE ? step * 2 : step) bounds.push(at);
  }
  return bounds;
}

export function childrenOf(flat: readonly FlatNode[], parent: FlatNode): FlatNode[] {
  const children: FlatNode[] = [];
  for (let index = parent.index + 1; index < parent.end;) {
    const child = flat[index];
    if (!child) break;
    children.push(child);
    index = child.end;
  }
  return children;
}

function firstRefIn(flat: readonly FlatNode[], from: number, to: number): string | undefined {
  for (let index = from; index < to; index++) {
    const ref = flat[index]?.node.ref;
    if (ref) return ref;
  }
  return undefined;
}
