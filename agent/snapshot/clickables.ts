import { ONE_LINE_PX, type ClickableFact } from './page-metrics';
import type { AriaJsonNode } from './raw';
import { INTERACTIVE_ROLES, VALUE_TEXT_ROLES } from './roles';
import type { Box, Hint } from './types';

/**
 * Places the page-side clickables (page-metrics.ts) against the AI snapshot, by box:
 * - the snapshot has the element (same box): a name-less node gets the element's hint;
 * - the element sits inside a control the snapshot has (an icon inside a link or a small styled "button"): that
 *   control gets the hint;
 * - the snapshot has no such element at all (a CSS-drawn icon, a slider handle, a clickable image with an
 *   empty alt, a star in a mail row that opens its message): it is added as a `clickable` node with a `c<N>` ref that
 *   resolves through its CSS path, under the nearest of its ancestors the snapshot has.
 * Only the top-level document's nodes take part: page-side facts do not reach into frames.
 */

export interface PlacedClickables {
  /** Hints for snapshot refs that have no accessible name. */
  hints: Map<string, ClickableFact>;
  /** Facts behind the added `c<N>` refs. */
  added: Map<string, ClickableFact>;
  /** Snapshot refs of elements that take clicks though the snapshot does not say so (a listener, an anchor without href). */
  clicks: Map<string, ClickableFact>;
}

export const MAX_ADDED_CLICKABLES = 150;
/** A "clickable" larger than this share of the viewport is a backdrop or a whole-card overlay, not a control. */
const MAX_VIEWPORT_SHARE = 0.4;
const CONTROL_ANCESTOR_DEPTH = 3;

export function placeClickables(
  roots: AriaJsonNode[],
  facts: readonly ClickableFact[],
  viewport: { width: number; height: number },
): PlacedClickables {
  const placed: PlacedClickables = { hints: new Map(), added: new Map(), clicks: new Map() };
  if (facts.length === 0) return placed;
  const tree = indexTopFrame(roots);
  const viewportArea = viewport.width * viewport.height;
  const paths = new Map<ClickableFact, AriaJsonNode[]>();
  const held = new Map<AriaJsonNode, number>();
  for (const fact of facts) {
    if (fact.box.width * fact.box.height > MAX_VIEWPORT_SHARE * viewportArea || tree.outermost.has(boxKey(fact.box))) continue;
    const path = holderPath(tree, roots, fact);
    paths.set(fact, path);
    for (const node of path.slice(-CONTROL_ANCESTOR_DEPTH)) held.set(node, (held.get(node) ?? 0) + 1);
  }
  for (const fact of facts) {
    if (fact.box.width * fact.box.height > MAX_VIEWPORT_SHARE * viewportArea) continue;
    const same = tree.outermost.get(boxKey(fact.box));
    if (same) {
      if (same.ref && !same.name) placed.hints.set(same.ref, fact);
      if (same.ref) placed.clicks.set(same.ref, fact);
      continue;
    }
    const path = paths.get(fact) ?? [];
    const control = path
      .slice(-CONTROL_ANCESTOR_DEPTH)
      .reverse()
      .find(node => node.ref && (INTERACTIVE_ROLES.has(node.role) || (node.cursor === 'pointer' && isOneControl(node, fact, held))));
    if (control) {
      if (control.ref && !control.name && !placed.hints.has(control.ref)) placed.hints.set(control.ref, fact);
      continue;
    }
    if (placed.added.size >= MAX_ADDED_CLICKABLES) continue;
    const ref = `c${placed.added.size + 1}`;
    placed.added.set(ref, fact);
    const holder = path.at(-1);
    if (holder) adoptText(holder);
    const node: AriaJsonNode = { role: 'generic', ref, cursor: 'pointer', box: fact.box };
    const children = holder?.children ?? roots;
    if (!fact.text || !replaceInText(children, fact.text, node)) insertInReadingOrder(children, node);
  }
  return placed;
}

/**
 * A pointer-cursor node with no role is one control with the icon inside it (a styled div "button") when the icon is
 * the only clickable part in it and the node is about one line high; a taller one holding words or several icons is
 * an item (a mail row that opens its message) whose icons are controls of their own.
 */
function isOneControl(node: AriaJsonNode, fact: ClickableFact, held: ReadonlyMap<AriaJsonNode, number>): boolean {
  if ((held.get(node) ?? 0) > 1) return false;
  return !node.box || node.box.height <= Math.max(ONE_LINE_PX, 2 * fact.box.height);
}

export function boxKey(box: Box): string {
  return `${box.x},${box.y},${box.width},${box.height}`;
}

export function hintOf(fact: ClickableFact): Hint {
  const hint: Hint = {};
  if (fact.label) hint.label = fact.label;
  if (fact.icon) hint.icon = fact.icon;
  if (fact.state) hint.state = fact.state;
  if (fact.near) hint.near = fact.near;
  return hint;
}

interface TopFrameIndex {
  /** The outermost node of each box: an element the snapshot has is matched to it. */
  outermost: Map<string, AriaJsonNode>;
  /** The innermost node of each box: where something inside that element goes. */
  innermost: Map<string, AriaJsonNode>;
  parents: Map<AriaJsonNode, AriaJsonNode>;
}

function indexTopFrame(roots: Array<string | AriaJsonNode>): TopFrameIndex {
  const index: TopFrameIndex = { outermost: new Map(), innermost: new Map(), parents: new Map() };
  const visit = (items: Array<string | AriaJsonNode>, parent: AriaJsonNode | undefined) => {
    for (const item of items) {
      if (typeof item === 'string') continue;
      if (parent) index.parents.set(item, parent);
      if (item.box && item.box.width > 0 && item.box.height > 0) {
        const key = boxKey(item.box);
        if (!index.outermost.has(key)) index.outermost.set(key, item);
        index.innermost.set(key, item);
      }
      if (item.role !== 'iframe') visit(item.children ?? [], item);
    }
  };
  visit(roots, undefined);
  return index;
}

/**
 * The snapshot nodes the element sits in, outermost first: up from the nearest of its ancestors the snapshot has (by
 * box), so an icon scrolled out of its list's view is still its row's, never the line its box now overlaps; by its
 * box alone when none of its near ancestors is in the snapshot.
 */
function holderPath(tree: TopFrameIndex, roots: Array<string | AriaJsonNode>, fact: ClickableFact): AriaJsonNode[] {
  const holder = fact.holders.map(key => tree.innermost.get(key)).find(node => node !== undefined);
  if (!holder) return containingPath(roots, fact.box);
  const path: AriaJsonNode[] = [];
  for (let node: AriaJsonNode | undefined = holder; node; node = tree.parents.get(node)) path.unshift(node);
  return path;
}

function contains(outer: Box, inner: Box): boolean {
  return (
    inner.x >= outer.x - 1 &&
    inner.y >= outer.y - 1 &&
    inner.x + inner.width <= outer.x + outer.width + 1 &&
    inner.y + inner.height <= outer.y + outer.height + 1
  );
}

/** The chain of nested snapshot nodes whose boxes hold `box`, outermost first. */
function containingPath(roots: Array<string | AriaJsonNode>, box: Box): AriaJsonNode[] {
  const path: AriaJsonNode[] = [];
  let level: Array<string | AriaJsonNode> = roots;
  for (;;) {
    const next = deepestHolder(level, box);
    if (!next) return path;
    path.push(next);
    if (next.role === 'iframe') return path;
    level = next.children ?? [];
  }
}

/** The child holding the box, looking through box-less wrappers. */
function deepestHolder(items: Array<string | AriaJsonNode>, box: Box): AriaJsonNode | undefined {
  for (const item of items) {
    if (typeof item === 'string') continue;
    if (item.box && item.box.width > 0 && item.box.height > 0) {
      if (contains(item.box, box)) return item;
    } else if (!item.box) {
      const inner = deepestHolder(item.children ?? [], box);
      if (inner) return inner;
    }
  }
  return undefined;
}

/**
 * A node whose whole content was its text ("Senior Contributor" beside an info icon the tree does not have) keeps
 * that text as a child before the control added into it: once a node has children, the page state reads its
 * content from them alone.
 */
function adoptText(holder: AriaJsonNode): void {
  holder.children ??= [];
  if (holder.text === undefined || VALUE_TEXT_ROLES.has(holder.role)) return;
  if (holder.text) holder.children.unshift(holder.text);
  delete holder.text;
}

function insertInReadingOrder(children: Array<string | AriaJsonNode>, node: AriaJsonNode): void {
  const box = node.box as Box;
  const at = children.findIndex(child => {
    if (typeof child === 'string' || !child.box) return false;
    const middle = box.y + box.height / 2;
    return child.box.y > middle || (child.box.y <= middle && child.box.y + child.box.height > middle && child.box.x > box.x);
  });
  if (at === -1) children.push(node);
  else children.splice(at, 0, node);
}

/**
 * A control whose text the snapshot merged into its holder's ("- +" for a "-" and a "+" link) takes its own place in
 * that text: the text before it, the control, the text after it. Only a whole word of the text, or the start of a
 * run of marks ("QKZ"), is taken.
 */
function replaceInText(children: Array<string | AriaJsonNode>, text: string, node: AriaJsonNode): boolean {
  for (let index = 0; index < children.length; index++) {
    const child = children[index];
    if (typeof child !== 'string') continue;
    const at = wordAt(child, text);
    if (at === undefined) continue;
    const before = child.slice(0, at).trim();
    const after = child.slice(at + text.length).trim();
    children.splice(index, 1, ...[before, node, after].filter(part => part !== ''));
    return true;
  }
  return false;
}

function wordAt(haystack: string, word: string): number | undefined {
  for (let at = haystack.indexOf(word); at !== -1; at = haystack.indexOf(word, at + 1)) {
    const startsWord = at === 0 || /\s/.test(haystack[at - 1] ?? '');
    const endsWord = at + word.length === haystack.length || /\s/.test(haystack[at + word.length] ?? '');
    if (startsWord && (endsWord || (at === 0 && !/\s/.test(haystack)))) return at;
  }
  return undefined;
}
