import { z } from 'zod';
import type { FlatNode } from './raw';
import type { SnapshotNode } from './types';

/**
 * When the accessibility tree shows (almost) nothing, the page may still hold its text: hidden by CSS, under
 * aria-hidden, inside a closed shadow root, or drawn in a picture. One more read-only evaluate, taken only then,
 * says why when it can tell and lists the text blocks with CSS paths, so `find` finds them and `extract` reads them
 * by their `t<N>` refs.
 */

/** Below this many characters of names and text, the tree is "empty". */
export const EMPTY_TREE_CHARS = 40;
export const MAX_HIDDEN_BLOCKS = 80;
const BLOCK_CHARS = 400;

const hiddenTextSchema = z.object({
  why: z.string().optional(),
  /** `closed`: inside a closed shadow root — `find` lists it, but its selector is the host's (no locator reaches inside). */
  blocks: z.array(z.object({ selector: z.string(), text: z.string(), heading: z.boolean(), closed: z.boolean().optional() })),
});
export type HiddenText = z.infer<typeof hiddenTextSchema>;
export const parseHiddenText = (value: unknown): HiddenText => hiddenTextSchema.parse(value);

/** The tree shows (almost) nothing, or a sliver of the text the document holds: worth asking why. */
export function looksEmpty(treeChars: number, bodyTextChars: number): boolean {
  return treeChars < EMPTY_TREE_CHARS || (bodyTextChars >= 1_000 && treeChars < bodyTextChars / 20);
}

/** The characters of names and text the tree holds. */
export function treeTextChars(flat: readonly FlatNode[]): number {
  let chars = 0;
  for (const item of flat) chars += (item.node.name?.length ?? 0) + (item.node.text?.length ?? 0);
  return chars;
}

/** Runs in the page (see evaluateInPage). Reads only. */
export function collectHiddenText(options: { maxBlocks: number; blockChars: number; closedRootsKey: string }): HiddenText {
  const describe = (element: Element) => {
    const id = element.id ? `#${element.id}` : '';
    const cls = typeof element.className === 'string' && element.className.trim() ? `.${element.className.trim().split(/\s+/)[0]}` : '';
    return `<${element.localName}${id || cls}>`;
  };
  const pathOf = (element: Element): string => {
    const parts: string[] = [];
    for (let current: Element | null = element; current && current !== document.documentElement; current = current.parentElement) {
      if (current.id && /^[A-Za-z][\w-]*$/.test(current.id) && document.getElementById(current.id) === current) {
        parts.unshift(`#${current.id}`);
        return parts.join(' > ');
      }
      let index = 1;
      for (let sibling = current.previousElementSibling; sibling; sibling = sibling.previousElementSibling)
        if (sibling.localName === current.localName) index++;
      parts.unshift(`${current.localName}:nth-of-type(${index})`);
    }
    return `html > ${parts.join(' > ')}`;
  };
  /** The outermost ancestor that hides the element from the tree, and how. */
  const hiderOf = (element: Element): string | undefined => {
    let found: string | undefined;
    for (let current: Element | null = element; current; current = current.parentElement) {
      const style = getComputedStyle(current);
      if (style.display === 'none') found = `display: none on ${describe(current)}`;
      else if (style.visibility === 'hidden' && (!current.parentElement || getComputedStyle(current.parentElement).visibility !== 'hidden'))
        found = `visibility: hidden on ${describe(current)}`;
      else if (style.opacity === '0') found = `opacity: 0 on ${describe(current)}`;
      else if (current.getAttribute('aria-hidden') === 'true') found = `aria-hidden="true" on ${describe(current)}`;
      else if (style.contentVisibility === 'hidden') found = `content-visibility: hidden on ${describe(current)}`;
    }
    return found;
  };

  const BLOCKS = 'h1,h2,h3,h4,h5,h6,p,li,td,th,dd,dt,blockquote,pre,figcaption,div,span,a';
  const blocks: HiddenText['blocks'] = [];
  const hiders = new Map<string, number>();
  const candidates = document.body ? Array.from(document.body.querySelectorAll(BLOCKS)) : [];
  for (const element of candidates) {
    if (blocks.length >= options.maxBlocks) break;
    const own = Array.from(element.childNodes)
      .filter(node => node.nodeType === Node.TEXT_NODE)
      .map(node => node.textContent ?? '')
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (own.length < 2 && !/^h[1-6]$/.test(element.localName)) continue;
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (text.length < 2 || (/^(div|span|a)$/.test(element.localName) && own.length < 20)) continue;
    if (blocks.some(block => block.text.includes(text.slice(0, 60)))) continue;
    blocks.push({ selector: pathOf(element), text: text.slice(0, options.blockChars), heading: /^h[1-6]$/.test(element.localName) });
    const hider = hiderOf(element);
    if (hider) hiders.set(hider, (hiders.get(hider) ?? 0) + 1);
  }
  // Closed shadow roots the page attached (closed-shadow-roots.ts kept them): their text, found under the host.
  const closedRoots = (window as unknown as Record<symbol, WeakMap<Element, ShadowRoot> | undefined>)[Symbol.for(options.closedRootsKey)];
  const closedHosts = new Map<Element, number>();
  if (closedRoots && blocks.length === 0) {
    for (const host of Array.from(document.querySelectorAll('*'))) {
      const root = closedRoots.get(host);
      if (!root) continue;
      for (const element of Array.from(root.querySelectorAll(BLOCKS))) {
        if (blocks.length >= options.maxBlocks) break;
        const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
        if (text.length < 2 || blocks.some(block => block.text.includes(text.slice(0, 60)))) continue;
        const heading = /^h[1-6]$/.test(element.localName);
        blocks.push({ selector: pathOf(host), text: text.slice(0, options.blockChars), heading, closed: true });
        closedHosts.set(host, (closedHosts.get(host) ?? 0) + text.length);
      }
    }
  }
  const mainHider = [...hiders.entries()].sort((a, b) => b[1] - a[1])[0];
  let why = mainHider && mainHider[1] >= Math.max(1, blocks.length / 2) ? `hidden by CSS (${mainHider[0]})` : undefined;
  if (mainHider && /^aria-hidden/.test(mainHider[0]) && why) why = `hidden from assistive technology (${mainHider[0]})`;
  const [closedHost, closedChars] = [...closedHosts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!why && closedHost)
    why = `inside a closed shadow root (${describe(closedHost)} holds ${closedChars!.toLocaleString('en')} characters of text the tree cannot see)`;
  if (!why && blocks.length === 0) {
    const host = Array.from(document.querySelectorAll('*')).find(element => {
      if (!element.localName.includes('-') || element.shadowRoot) return false;
      const box = element.getBoundingClientRect();
      return box.width * box.height > 0.2 * innerWidth * innerHeight && !(element.textContent ?? '').trim();
    });
    if (host) why = `probably inside a closed shadow root (${describe(host)} draws content the page cannot read)`;
    else {
      // A picture, a canvas or a drawing with no words for the tree: the text is in its pixels, if anywhere.
      const picture = Array.from(document.querySelectorAll('img, canvas, svg, object, embed, video')).find(element => {
        const box = element.getBoundingClientRect();
        const words = (element.getAttribute('alt') ?? '') + (element.getAttribute('aria-label') ?? '') + (element.textContent ?? '');
        return box.width * box.height > 0.3 * innerWidth * innerHeight && !words.trim();
      });
      if (picture) why = `probably in a picture (${describe(picture)} fills much of the page without a text alternative)`;
    }
  }
  return { ...(why ? { why } : {}), blocks };
}

/** The hidden blocks as outline nodes with `t<N>` refs that resolve by CSS path (never printed as lines: `find` lists them). */
export function hiddenTextNodes(hidden: HiddenText): SnapshotNode[] {
  return hidden.blocks.map((block, index) => ({
    ref: `t${index + 1}`,
    role: block.heading ? 'heading' : 'text',
    text: block.text,
    selector: block.selector,
    states: {},
    inViewport: false,
  }));
}

export function hiddenTextNote(hidden: HiddenText, bodyTextChars: number, treeChars: number): string {
  const holds = bodyTextChars > 0 ? `the document holds ${bodyTextChars.toLocaleString('en')} characters of text` : 'the page draws content';
  const why = hidden.why ? `: ${hidden.why}` : '';
  const closed = hidden.blocks.length > 0 && hidden.blocks.every(block => block.closed);
  const reach = !hidden.blocks.length
    ? ''
    : closed
      ? ` — find searches its ${hidden.blocks.length} text blocks; no locator reaches inside a closed shadow root, so extract cannot read them (a screenshot shows them)`
      : ` — find searches its ${hidden.blocks.length} text blocks; extract reads them by their [t…] refs`;
  const tree =
    treeChars < EMPTY_TREE_CHARS ? 'the accessibility tree is empty' : `the accessibility tree shows ${treeChars.toLocaleString('en')} characters`;
  return `(${tree}, but ${holds}${why}${reach})`;
}

export const HIDDEN_BLOCK_CHARS = BLOCK_CHARS;
