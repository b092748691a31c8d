import type { FlatNode } from './raw';

/** Per subtree: links, characters of link text, characters of all text — the boilerplate signals. */
export interface Density {
  links: Uint32Array;
  linkChars: Uint32Array;
  chars: Uint32Array;
}

export function measureText(flat: readonly FlatNode[]): Density {
  const density: Density = { links: new Uint32Array(flat.length), linkChars: new Uint32Array(flat.length), chars: new Uint32Array(flat.length) };
  const inLink = new Uint8Array(flat.length);
  for (const item of flat) {
    const parent = flat[item.parent];
    if (item.node.role === 'link' || (parent && inLink[parent.index])) inLink[item.index] = 1;
  }
  for (let index = flat.length - 1; index >= 0; index--) {
    const item = flat[index] as FlatNode;
    const own = item.fragment || item.end === item.index + 1 ? (item.node.text ?? item.node.name ?? '').length : 0;
    density.chars[index] = (density.chars[index] ?? 0) + own;
    if (inLink[index]) density.linkChars[index] = (density.linkChars[index] ?? 0) + own;
    if (item.node.role === 'link') density.links[index] = (density.links[index] ?? 0) + 1;
    const parent = item.parent;
    if (parent >= 0) {
      density.chars[parent] = (density.chars[parent] ?? 0) + (density.chars[index] ?? 0);
      density.linkChars[parent] = (density.linkChars[parent] ?? 0) + (density.linkChars[index] ?? 0);
      density.links[parent] = (density.links[parent] ?? 0) + (density.links[index] ?? 0);
    }
  }
  return density;
}

export function proseChars(density: Density, index: number): number {
  return (density.chars[index] ?? 0) - (density.linkChars[index] ?? 0);
}

/** Share of a subtree's prose a child must hold for the search to go down into it. */
export const TEXT_MASS_SHARE = 0.6;

/**
 * Where the page's prose is, on pages with no `main` and no article: going down from the top, into the
 * child holding most of the prose (not link text) while one does — the smallest container of most of it.
 */
export function textMassRoot(flat: readonly FlatNode[], density: Density): FlatNode | undefined {
  const roots = flat.filter(item => item.parent === -1);
  let current = roots.reduce<FlatNode | undefined>(
    (best, item) => (!best || proseChars(density, item.index) > proseChars(density, best.index) ? item : best),
    undefined,
  );
  if (!current || proseChars(density, current.index) === 0) return undefined;
  for (;;) {
    const total = proseChars(density, current.index);
    let next: FlatNode | undefined;
    for (let index = current.index + 1; index < current.end;) {
      const child = flat[index] as FlatNode;
      if (proseChars(density, child.index) >= total * TEXT_MASS_SHARE) next = child;
      index = child.end;
    }
    if (!next || next.end - next.index <= 1) return current;
    current = next;
  }
}

export function isLinkDense(density: Density, index: number, minLinks: number, minShare: number): boolean {
  const links = density.links[index] ?? 0;
  const chars = density.chars[index] ?? 0;
  return links >= minLinks && chars > 0 && (density.linkChars[index] ?? 0) / chars >= minShare;
}
