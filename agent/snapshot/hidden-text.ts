import { z } from 'zod';
import type { FlatNode } from './raw';
import { quote } from './serialize';
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
export const HIDDEN_BLOCK_CHARS = 400;

/** How an element hides its text: the collector picks one of these; the page names only the element. */
const HIDING_RULES = ['display: none', 'visibility: hidden', 'opacity: 0', 'aria-hidden="true"', 'content-visibility: hidden'] as const;
/** An element as the page wrote it: its tag, and its id or first class — page text, quoted when printed. */
const pageElementSchema = z.object({ tag: z.string(), id: z.string().optional(), className: z.string().optional() });
const hiddenTextSchema = z.object({
  why: z
    .discriminatedUnion('kind', [
      z.object({ kind: z.literal('hidden'), rule: z.enum(HIDING_RULES), element: pageElementSchema }),
      z.object({ kind: z.literal('closed shadow root'), element: pageElementSchema, chars: z.number().int().nonnegative() }),
      z.object({ kind: z.enum(['shadow root', 'picture']), element: pageElementSchema }),
    ])
    .optional(),
  /** `closed`: inside a closed shadow root — `find` lists it, but its selector is the host's (no locator reaches inside). */
  blocks: z.array(z.object({ selector: z.string(), text: z.string(), heading: z.boolean(), closed: z.boolean().optional() })),
});
type PageElement = z.infer<typeof pageElementSchema>;
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

type HidingRule = (typeof HIDING_RULES)[number];

/** Runs in the page (see evaluateInPage). Reads only. */
export function collectHiddenText(options: { maxBlocks: number; blockChars: number; closedRootsKey: string }): HiddenText {
  const describe = (element: Element) => {
    const className = typeof element.className === 'string' ? element.className.trim().split(/\s+/)[0] : '';
    return { tag: element.localName, ...(element.id ? { id: element.id } : className ? { className } : {}) };
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
  const hiderOf = (element: Element): { rule: HidingRule; element: Element } | undefined => {
    let found: { rule: HidingRule; element: Element } | undefined;
    for (let current: Element | null = element; current; current = current.parentElement) {
      const style = getComputedStyle(current);
      const rule: HidingRule | undefined =
        style.display === 'none'
          ? 'display: none'
          : style.visibility === 'hidden' && (!current.parentElement || getComputedStyle(current.parentElement).visibility !== 'hidden')
            ? 'visibility: hidden'
            : style.opacity === '0'
              ? 'opacity: 0'
              : current.getAttribute('aria-hidden') === 'true'
                ? 'aria-hidden="true"'
                : style.contentVisibility === 'hidden'
                  ? 'content-visibility: hidden'
                  : undefined;
      if (rule) found = { rule, element: current };
    }
    return found;
  };

  const BLOCKS = 'h1,h2,h3,h4,h5,h6,p,li,td,th,dd,dt,blockquote,pre,figcaption,div,span,a';
  const blocks: HiddenText['blocks'] = [];
  const hiders = new Map<Element, { rule: HidingRule; count: number }>();
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
    if (hider) hiders.set(hider.element, { rule: hider.rule, count: (hiders.get(hider.element)?.count ?? 0) + 1 });
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
  const mainHider = [...hiders.entries()].sort((a, b) => b[1].count - a[1].count)[0];
  let why: HiddenText['why'] =
    mainHider && mainHider[1].count >= Math.max(1, blocks.length / 2)
      ? { kind: 'hidden', rule: mainHider[1].rule, element: describe(mainHider[0]) }
      : undefined;
  const [closedHost, closedChars] = [...closedHosts.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (!why && closedHost) why = { kind: 'closed shadow root', element: describe(closedHost), chars: closedChars! };
  if (!why && blocks.length === 0) {
    const host = Array.from(document.querySelectorAll('*')).find(element => {
      if (!element.localName.includes('-') || element.shadowRoot) return false;
      const box = element.getBoundingClientRect();
      return box.width * box.height > 0.2 * innerWidth * innerHeight && !(element.textContent ?? '').trim();
    });
    if (host) why = { kind: 'shadow root', element: describe(host) };
    else {
      // A picture, a canvas or a drawing with no words for the tree: the text is in its pixels, if anywhere.
      const picture = Array.from(document.querySelectorAll('img, canvas, svg, object, embed, video')).find(element => {
        const box = element.getBoundingClientRect();
        const words = (element.getAttribute('alt') ?? '') + (element.getAttribute('aria-label') ?? '') + (element.textContent ?? '');
        return box.width * box.height > 0.3 * innerWidth * innerHeight && !words.trim();
      });
      if (picture) why = { kind: 'picture', element: describe(picture) };
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
  // A small page whose tree already shows all the text the document holds hides nothing: no note.
  if (!hidden.why && bodyTextChars <= treeChars) return '';
  const holds = bodyTextChars > 0 ? `the document holds ${bodyTextChars.toLocaleString('en')} characters of text` : 'the page draws content';
  const why = hidden.why ? `: ${hiddenBecause(hidden.why)}` : '';
  const closed = hidden.blocks.length > 0 && hidden.blocks.every(block => block.closed);
  const reach = !hidden.blocks.length
    ? ''
    : closed
      ? ` — find searches its ${hidden.blocks.length} text blocks; no locator reaches inside a closed shadow root, so extract cannot read them (a screenshot shows them)`
      : ` — find searches its ${hidden.blocks.length} text blocks; extract reads them by their [t…] refs`;
  const tree =
    treeChars === 0
      ? 'the accessibility tree is empty'
      : `the accessibility tree shows ${treeChars < EMPTY_TREE_CHARS ? 'only ' : ''}${treeChars.toLocaleString('en')} characters`;
  return `(${tree}, but ${holds}${why}${reach})`;
}

function hiddenBecause(why: NonNullable<HiddenText['why']>): string {
  const element = pageElement(why.element);
  if (why.kind === 'hidden') {
    const hiding = `${why.rule} on ${element}`;
    return why.rule === 'aria-hidden="true"' ? `hidden from assistive technology (${hiding})` : `hidden by CSS (${hiding})`;
  }
  if (why.kind === 'closed shadow root')
    return `inside a closed shadow root (${element} holds ${why.chars.toLocaleString('en')} characters of text the tree cannot see)`;
  return why.kind === 'shadow root'
    ? `probably inside a closed shadow root (${element} draws content the page cannot read)`
    : `probably in a picture (${element} fills much of the page without a text alternative)`;
}

/** The page's tag, id and class are its own text: quoted, so an id cannot write a line of ours. */
function pageElement(element: PageElement): string {
  const tag = /^[a-z][a-z0-9-]{0,40}$/.test(element.tag) ? element.tag : quote(element.tag, 40);
  const attribute =
    element.id !== undefined ? ` id=${quote(element.id, 40)}` : element.className !== undefined ? ` class=${quote(element.className, 40)}` : '';
  return `<${tag}${attribute}>`;
}
