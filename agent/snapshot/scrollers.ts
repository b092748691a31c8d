import { boxKey } from './clickables';
import type { ScrollerFact } from './page-metrics';
import type { FlatNode } from './raw';
import type { Box } from './types';

/**
 * What a scrolling container hides. The snapshot lists every item of a list that scrolls inside the page, those
 * scrolled out of its box included, and their boxes say where they are. Each container the page scrolls on its own
 * (page-metrics' scrollers, matched by box) is marked with how many of its items lie above and below what it shows,
 * and what it hides is out of view — however much of the window it would fill if it were not clipped.
 */

/** Half a pixel of rounding on either edge: an item flush with the container's edge is in it. */
const EDGE = 1;

export function markScrollers(flat: readonly FlatNode[], facts: readonly ScrollerFact[]): void {
  if (facts.length === 0) return;
  const byBox = new Map(facts.map(fact => [boxKey(fact.box), fact]));
  for (const item of flat) {
    const box = item.node.box;
    const fact = box && !item.node.frameRef ? byBox.get(boxKey(box)) : undefined;
    if (!fact || item.node.scroller) continue;
    const top = fact.box.y;
    const bottom = fact.box.y + fact.clientHeight;
    hideClipped(flat, item, top, bottom);
    const units = itemsOf(flat, item).filter(unit => unit.node.box);
    const above = units.filter(unit => isAbove(unit.node.box as Box, top)).length;
    const below = units.filter(unit => isBelow(unit.node.box as Box, bottom)).length;
    item.node.scroller = { items: units.length, above, below, offset: fact.scrollTop };
  }
}

/** A descendant outside the container's visible box is out of view; a bare text takes its element's verdict. */
function hideClipped(flat: readonly FlatNode[], container: FlatNode, top: number, bottom: number): void {
  for (let index = container.index + 1; index < container.end; index++) {
    const item = flat[index] as FlatNode;
    const box = item.node.box;
    if (box && box.height > 0) {
      if (isAbove(box, top) || isBelow(box, bottom)) item.node.inViewport = false;
    } else if (flat[item.parent] && !flat[item.parent]?.node.inViewport) item.node.inViewport = false;
  }
}

/** The units the container scrolls through: the children of its first descendant with more than one child. */
function itemsOf(flat: readonly FlatNode[], container: FlatNode): FlatNode[] {
  let current = container;
  for (;;) {
    const children = childElements(flat, current);
    if (children.length !== 1) return children;
    current = children[0] as FlatNode;
  }
}

function childElements(flat: readonly FlatNode[], parent: FlatNode): FlatNode[] {
  const children: FlatNode[] = [];
  for (let index = parent.index + 1; index < parent.end; index = (flat[index] as FlatNode).end) {
    const child = flat[index] as FlatNode;
    if (!child.fragment) children.push(child);
  }
  return children;
}

const isAbove = (box: Box, top: number) => box.y + box.height <= top + EDGE;
const isBelow = (box: Box, bottom: number) => box.y >= bottom - EDGE;
