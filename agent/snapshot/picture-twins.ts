import type { FlatNode } from './raw';

/**
 * A byline links its avatar and its name to one profile: the avatar shows a picture, not the name. The two are one
 * element — the link with the text, the picture's ref beside it — so the name never points at a link with no text to
 * read. One rule for both places the pair meets: side by side in running text (inline.ts) and as lines of their own
 * (render.ts).
 */
export function foldPictureTwin(flat: readonly FlatNode[], a: FlatNode, b: FlatNode): { kept: FlatNode; folded: FlatNode } | undefined {
  if (a.node.role !== 'link' || b.node.role !== 'link' || !a.node.url || a.node.url !== b.node.url || !a.node.ref || !b.node.ref) return undefined;
  const aPictures = picturesOnly(flat, a);
  if (aPictures === picturesOnly(flat, b)) return undefined;
  const [kept, folded] = aPictures ? [b, a] : [a, b];
  // An avatar named for someone else is not this name's picture.
  if (folded.node.name && folded.node.name !== kept.node.name) return undefined;
  return { kept, folded };
}

/** A link whose content is pictures only (an avatar): no text of its own to read. */
function picturesOnly(flat: readonly FlatNode[], item: FlatNode): boolean {
  if (item.end === item.index + 1) return false;
  for (let index = item.index + 1; index < item.end; index++) {
    const inner = flat[index] as FlatNode;
    if (inner.fragment || inner.node.text || !/^(img|image|graphics-symbol|generic|none|presentation)$/.test(inner.node.role)) return false;
  }
  return true;
}
