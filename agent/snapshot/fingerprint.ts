import { createHash } from 'node:crypto';
import type { FlatNode } from './raw';
import type { ScrollState, SnapshotNode } from './types';

/**
 * What the page shows, as one digest: its address, where it and its scrolling containers are scrolled, and every
 * node's role, words, value, address, states and hints (a name-less control's icon, its on-state class) — the whole
 * page, collapsed parts included. Refs, boxes and the page state's layout (what
 * the budget closed, what a pin kept) are left out: a re-render with new refs, or the same page printed another
 * way, is the same page. Two looks with one digest saw the same page; an action between them changed nothing.
 */
export function pageFingerprint(url: string, flat: readonly FlatNode[], scroll: Pick<ScrollState, 'x' | 'y'>): string {
  const hash = createHash('sha256');
  hash.update(`${url}\u0000${Math.round(scroll.x)},${Math.round(scroll.y)}`);
  for (const item of flat) {
    const node = item.node;
    hash.update(
      `\u0001${item.depth}\u0000${node.role}\u0000${node.name ?? ''}\u0000${node.text ?? ''}\u0000${node.value ?? ''}\u0000${node.url ?? ''}\u0000${JSON.stringify(node.states)}\u0000${node.track ?? ''}\u0000${node.scroller?.offset ?? ''}\u0000${hintText(node.hint)}`,
    );
  }
  return hash.digest('base64url').slice(0, 22);
}

function hintText(hint: SnapshotNode['hint']): string {
  return hint ? `${hint.label ?? ''}\u0002${hint.icon ?? ''}\u0002${hint.state ?? ''}\u0002${hint.near ?? ''}` : '';
}
