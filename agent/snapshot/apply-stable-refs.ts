import type { PlacedClickables } from './clickables';
import type { FlatNode } from './raw';
import type { AddedIdentity } from './stable-refs';
import type { SnapshotNode } from './types';

/**
 * What keeps an added clickable's number: the element itself (its identity in the page), and for a redrawn one the
 * control it replaces — the words of its item when those tell it from its twins (the boost of the post by Ines, wherever
 * that post is now drawn), else its place (CSS path) and what it shows.
 */
export function addedClickableIdentities(placed: PlacedClickables, refs: ReadonlyMap<string, SnapshotNode>): Map<string, AddedIdentity> {
  const identities = new Map<string, AddedIdentity>();
  for (const [ref, fact] of placed.added) {
    const hint = refs.get(ref)?.hint;
    const looks = [fact.text ?? '', fact.label ?? '', fact.icon ?? ''];
    const key = hint?.nearNamesItem ? ['item', ...looks, hint.near ?? ''].join('\u0001') : [fact.selector, ...looks].join('\u0001');
    identities.set(ref, { element: fact.element, key });
  }
  return identities;
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
