import type { PlacedClickables } from './clickables';
import type { FlatNode } from './raw';
import type { SnapshotNode } from './types';

/** The key an added clickable keeps its number by: where it is (its CSS path) and what it shows. */
export function addedClickableKeys(placed: PlacedClickables): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [ref, fact] of placed.added) keys.set(ref, [fact.selector, fact.text ?? '', fact.label ?? '', fact.icon ?? ''].join('\u0001'));
  return keys;
}

/** Renames the flattened nodes' refs (and their frames' refs) to the printed ones; the ref map follows. */
export function applyStableRefs(flat: readonly FlatNode[], refs: Map<string, SnapshotNode>, renames: ReadonlyMap<string, string>): void {
  if (renames.size === 0) return;
  for (const { node } of flat) {
    if (node.ref) node.ref = renames.get(node.ref) ?? node.ref;
    if (node.frameRef) node.frameRef = renames.get(node.frameRef) ?? node.frameRef;
  }
  refs.clear();
  for (const { node } of flat) if (node.ref) refs.set(node.ref, node);
}
