import { textMassRoot, type Density } from './density';
import type { FlatNode } from './raw';
import { CHROME_ROLES } from './roles';
import { isMeaningfulText } from './text';

/**
 * What a reader finds first on any page, kept whatever the pruning does: the main headline (the h1, or the
 * top heading of the main content, even when the site wraps it in a banner-mapped <header>), the short
 * lines right around it (kicker, dek, byline, date), and the site's home link. Found by page structure
 * alone, never by a site's names.
 */

export interface Anchors {
  headline?: number;
  /** The headline and the short lines around it. */
  block: Set<number>;
  home?: number;
  /** The node holding the page's main content: `main`, else the article around the headline, else where the prose is. */
  mainRoot?: number;
}

/** Lines after the headline that still belong to its block, and lines before it (a kicker or date above). */
export const HEADLINE_BLOCK_AFTER = 10;
export const HEADLINE_BLOCK_BEFORE = 3;
/** Longer than this, a line is the article's body, not its byline. */
export const BYLINE_MAX_CHARS = 200;

export function findAnchors(
  flat: readonly FlatNode[],
  pageUrl: string,
  title: string,
  density: Density,
  isLine: (item: FlatNode) => boolean,
): Anchors {
  const main = flat.find(item => item.node.role === 'main' && !insideRole(flat, item, CHROME_ROLES));
  const headline = findHeadline(flat, main, title);
  const anchors: Anchors = { block: new Set() };
  if (headline) {
    anchors.headline = headline.index;
    collectBlock(flat, headline, isLine, anchors.block);
  }
  const home = findHomeLink(flat, pageUrl);
  if (home) anchors.home = home.index;
  const root = main ?? (headline ? articleAround(flat, headline) : undefined) ?? textMassRoot(flat, density);
  if (root) anchors.mainRoot = root.index;
  return anchors;
}

function findHeadline(flat: readonly FlatNode[], main: FlatNode | undefined, title: string): FlatNode | undefined {
  const headings = flat.filter(item => item.node.role === 'heading' && isMeaningfulText(item.node.name ?? item.node.text ?? headingText(flat, item)));
  const level1 = headings.filter(item => item.node.states.level === 1);
  const inMain = (item: FlatNode) => !!main && item.index > main.index && item.index < main.end;
  const matchesTitle = (item: FlatNode) => {
    const label = squash(item.node.name ?? item.node.text ?? headingText(flat, item));
    const page = squash(title);
    return label.length >= 8 && (page.includes(label) || label.includes(page));
  };
  const byTitle = level1.find(matchesTitle) ?? headings.find(matchesTitle);
  if (byTitle) return byTitle;
  const h1 = level1.find(inMain) ?? level1[0];
  if (h1) return h1;
  const scope = headings.filter(item => (main ? inMain(item) : !insideRole(flat, item, CHROME_ROLES)));
  const top = Math.min(...scope.map(item => item.node.states.level ?? 6));
  return scope.find(item => (item.node.states.level ?? 6) === top);
}

function headingText(flat: readonly FlatNode[], heading: FlatNode): string {
  const parts: string[] = [];
  for (let index = heading.index + 1; index < heading.end; index++) {
    const node = flat[index]?.node;
    if (node?.text) parts.push(node.text);
    else if (node?.name) parts.push(node.name);
  }
  return parts.join(' ');
}

/** The short printed lines just before and after the headline, stopping at the body text or the next heading. */
function collectBlock(flat: readonly FlatNode[], headline: FlatNode, isLine: (item: FlatNode) => boolean, block: Set<number>): void {
  block.add(headline.index);
  let taken = 0;
  for (let index = headline.end; index < flat.length && taken < HEADLINE_BLOCK_AFTER; index++) {
    const item = flat[index] as FlatNode;
    if (!isLine(item)) continue;
    if (item.node.role === 'heading' && (item.node.states.level ?? 6) <= (headline.node.states.level ?? 1)) break;
    if (lineLength(item) > BYLINE_MAX_CHARS || isNavigationLike(item)) break;
    block.add(index);
    taken++;
  }
  taken = 0;
  for (let index = headline.index - 1; index >= 0 && taken < HEADLINE_BLOCK_BEFORE; index--) {
    const item = flat[index] as FlatNode;
    if (!isLine(item) || item.end > headline.index) continue;
    if (item.node.role === 'heading' || lineLength(item) > BYLINE_MAX_CHARS || item.node.landmark !== headline.node.landmark) break;
    block.add(index);
    taken++;
  }
}

/** A menu after the headline is the site's, not the article's: the block ends there. */
function isNavigationLike(item: FlatNode): boolean {
  const landmark = item.node.landmark;
  return landmark === 'navigation' || landmark === 'contentinfo' || landmark === 'complementary' || item.node.role === 'navigation';
}

function lineLength(item: FlatNode): number {
  return (item.node.name ?? '').length + (item.node.text ?? '').length;
}

/** A link to the site's front page: the address is the origin itself (the logo link, "Home"). */
function findHomeLink(flat: readonly FlatNode[], pageUrl: string): FlatNode | undefined {
  let origin: string;
  try {
    origin = new URL(pageUrl).origin;
  } catch {
    return undefined;
  }
  return flat.find(item => {
    if (item.node.role !== 'link' || !item.node.ref || item.node.url === undefined) return false;
    try {
      const target = new URL(item.node.url, pageUrl);
      return target.origin === origin && /^\/(index\.\w+)?$/.test(target.pathname) && !target.search;
    } catch {
      return false;
    }
  });
}

/** Without a `main`, the article holding the headline (or the headline's parent) marks where content is. */
function articleAround(flat: readonly FlatNode[], headline: FlatNode): FlatNode | undefined {
  for (let parent = flat[headline.parent]; parent; parent = flat[parent.parent]) {
    if (parent.node.role === 'article') return parent;
  }
  return undefined;
}

export function insideRole(flat: readonly FlatNode[], item: FlatNode, roles: ReadonlySet<string>): boolean {
  for (let parent = flat[item.parent]; parent; parent = flat[parent.parent]) {
    if (roles.has(parent.node.role)) return true;
  }
  return false;
}

function squash(value: string): string {
  return value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}
