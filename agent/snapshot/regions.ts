import type { Anchors } from './anchors';
import { isLinkDense, type Density } from './density';
import type { FlatNode } from './raw';
import { CHROME_ROLES, INTERACTIVE_ROLES } from './roles';

/**
 * Regions shown collapsed by default — one stub line each, openable with `expand`:
 * - site chrome: banner and contentinfo (by ARIA definition scoped to the page), navigation and
 *   complementary outside `main` (inside it they are page content: pagination, in-page tabs);
 * - link lists outside the main content: blocks that are mostly link text (menus, "most popular",
 *   footers built from divs), measured by link density, the classic boilerplate signal.
 * If collapsing would leave nothing worth showing, the page *is* its chrome (a sitemap, a menu page)
 * and nothing is collapsed.
 */

export interface DefaultRegions {
  collapsed: Set<number>;
  chromeRegions: number;
}

export const LINK_DENSE_MIN_LINKS = 6;
export const LINK_DENSE_MIN_SHARE = 0.7;

export function defaultCollapsedRegions(
  flat: readonly FlatNode[],
  anchors: Anchors,
  density: Density,
  isWorthShowing: (item: FlatNode) => boolean,
  expanded: ReadonlySet<number>,
): DefaultRegions {
  const collapsed = new Set<number>();
  const covered = new Uint8Array(flat.length);
  // What the agent expanded is open all the way down: a menu inside an expanded header opens with it.
  const opened = new Uint8Array(flat.length);
  for (const index of expanded) {
    const item = flat[index];
    if (item) opened.fill(1, item.index, item.end);
  }
  const protectedPath = protectedAncestors(flat, anchors);
  const collapse = (item: FlatNode) => {
    collapsed.add(item.index);
    covered.fill(1, item.index, item.end);
  };
  let chromeRegions = 0;
  for (const item of flat) {
    if (covered[item.index] || opened[item.index] || !item.node.ref || !CHROME_ROLES.has(item.node.role)) continue;
    if ((item.node.role === 'navigation' || item.node.role === 'complementary') && insideMain(flat, item)) continue;
    collapse(item);
    chromeRegions++;
  }
  const mainRoot = anchors.mainRoot === undefined ? undefined : flat[anchors.mainRoot];
  if (mainRoot) {
    for (const item of flat) {
      if (covered[item.index] || opened[item.index] || !item.node.ref || protectedPath.has(item.index)) continue;
      if (item.index >= mainRoot.index && item.index < mainRoot.end) continue;
      if (INTERACTIVE_ROLES.has(item.node.role) || !isLinkDense(density, item.index, LINK_DENSE_MIN_LINKS, LINK_DENSE_MIN_SHARE)) continue;
      collapse(item);
    }
  }
  const contentIsEmpty = collapsed.size > 0 && !flat.some(item => !covered[item.index] && isWorthShowing(item));
  if (contentIsEmpty) return { collapsed: new Set(), chromeRegions: 0 };
  return { collapsed, chromeRegions };
}

/** The main content and the headline, with every ancestor of theirs, are never collapsed as link lists. */
function protectedAncestors(flat: readonly FlatNode[], anchors: Anchors): Set<number> {
  const keep = new Set<number>();
  for (const index of [anchors.mainRoot, anchors.headline]) {
    for (let item = index === undefined ? undefined : flat[index]; item; item = flat[item.parent]) keep.add(item.index);
  }
  return keep;
}

function insideMain(flat: readonly FlatNode[], item: FlatNode): boolean {
  for (let parent = flat[item.parent]; parent; parent = flat[parent.parent]) {
    if (parent.node.role === 'main') return true;
  }
  return false;
}
