import { buildBlocks, childrenOf, type Block } from './blocks';
import { fitBlocks } from './budget';
import { placeClickables } from './clickables';
import { computeConfidence, countSnapshot } from './confidence';
import { enrichNodes } from './enrich';
import { pageFingerprint } from './fingerprint';
import { paginationRefs } from './pagination';
import { markScrollers } from './scrollers';
import { normalizeKeywords } from './keywords';
import type { PageMetrics } from './page-metrics';
import { selectCandidates, type Candidate } from './select-candidates';
import { flattenSnapshot, parseSnapshot, type AriaJsonNode, type FlatNode } from './raw';
import { candidateLine, renderState, type LineFormat } from './render';
import { formatHeader, indent, quote, type HeaderFacts } from './serialize';
import { applyStableRefs, addedClickableIdentities } from './apply-stable-refs';
import { identitiesOf, topDocumentOf, type RefMemory } from './stable-refs';
import { tellApart } from './tell-apart';
import { orderAsShown } from './visual-order';
import { defaultTokenBudget, estimateTokens } from './tokens';
import type { DocumentFacts } from './document-facts';
import { formatDocumentSection, formatDocumentStub, numberFacts } from './document-section';
import { hiddenTextNodes, hiddenTextNote, treeTextChars, type HiddenText } from './hidden-text';
import type { Observation, ObserveOptions, PageFocus, ScrollState } from './types';

export type BuildOptions = Pick<ObserveOptions, 'keywords' | 'tokenBudget' | 'mustKeep' | 'focus' | 'previousRefs' | 'showDocument'> & {
  /** What the page says about itself (read by the same evaluate as the metrics). */
  document?: DocumentFacts;
  /** The text an empty tree leaves out, read only when the tree is empty. */
  hidden?: HiddenText;
  /** Keeps a redrawn control's ref from one look to the next (observe() passes the page's own). */
  refMemory?: RefMemory;
};

/** A stub line's counts and examples, on top of its role and name (an estimate; the final text is measured). */
const STUB_TAIL_TOKENS = 40;
const MAX_TITLE_CHARS = 200;
const MAX_FIT_ROUNDS = 8;

/**
 * Everything observe() does after the two page calls, as a pure function of the AI snapshot JSON and
 * the page metrics — so pruning and serialisation are testable without a browser.
 */
export function buildObservation(json: unknown, metrics: PageMetrics, url: string, options: BuildOptions = {}): Observation {
  const viewport = { width: metrics.viewportWidth, height: metrics.viewportHeight };
  const roots = parseSnapshot(json);
  // Identities are read before clickables are added to the tree: a redrawn control is compared with what the page had.
  const identities = options.refMemory ? identitiesOf(roots, { x: metrics.scrollX, y: metrics.scrollY }) : undefined;
  const placed = placeClickables(
    roots.filter((root): root is AriaJsonNode => typeof root !== 'string'),
    metrics.clickables,
    viewport,
  );
  orderAsShown(roots, metrics.direction === 'rtl');
  const { flat, refs, rawChars } = flattenSnapshot(roots, viewport);
  enrichNodes(flat, metrics, placed);
  tellApart(flat);
  if (options.refMemory && identities)
    applyStableRefs(flat, refs, options.refMemory.assign(identities, addedClickableIdentities(placed, refs), topDocumentOf(roots)));
  markScrollers(flat, metrics.scrollers);
  const scroll = toScrollState(metrics);
  const fingerprint = pageFingerprint(url, flat, scroll);

  const keywords = normalizeKeywords(options.keywords);
  const origin = originOf(url);
  const focus = resolveFocus(flat, options.focus);
  const pruned = selectCandidates(flat, {
    keywords,
    mustKeep: options.mustKeep,
    pageUrl: url,
    title: metrics.title,
    ...focus,
    previousRefs: options.previousRefs,
  });
  const { candidates } = pruned;
  const blocks = buildBlocks(flat, candidates, pruned.collapsed);
  const format: LineFormat = { keywords, origin };
  const lines = candidates.map(candidate => candidateLine(flat, candidate, format));
  const depth = printedDepthBound(flat, candidates, blocks);
  const lineCost = candidates.map((candidate, position) => estimateTokens(`${indent(depth[candidate.flat.index] ?? 0)}${lines[position]}\n`));
  const stubCost = blocks.map(block => stubEstimate(flat, block, depth));
  const title = metrics.title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_CHARS);
  const scrollerOf = enclosingScrollers(flat);
  const inScrollers = flat.reduce((sum, item) => sum + (item.node.scroller ? item.node.scroller.above + item.node.scroller.below : 0), 0);
  const headerFacts: HeaderFacts = {
    url,
    title,
    scroll,
    rawNodes: flat.length,
    lines: flat.length,
    collapsed: flat.length,
    belowFold: flat.length,
    inScrollers,
  };
  const documentFacts = numberFacts(options.document?.facts ?? [], url, title);
  const treeChars = treeTextChars(flat);
  const preamble = [
    options.showDocument === false
      ? formatDocumentStub(documentFacts)
      : formatDocumentSection(documentFacts, origin, title, options.showDocument === 'whole'),
    options.hidden ? hiddenTextNote(options.hidden, options.document?.bodyTextChars ?? 0, treeChars) : '',
  ].filter(Boolean);
  // Worst-case counts, so the header never outgrows its reservation.
  const headerTokens = estimateTokens([formatHeader(headerFacts), ...preamble].join('\n')) + 1;
  const totalBudget = options.tokenBudget ?? defaultTokenBudget();

  const pinned = Uint8Array.from(candidates, candidate => (candidate.pin === undefined ? 0 : 1));
  const startClosed = new Set(blocks.filter(block => block.kind === 'region' && pruned.collapsed.has(block.index)).map(block => block.id));
  let budget = totalBudget - headerTokens;
  let rendered = renderState({ format, flat, candidates, lines, blocks, closed: new Uint8Array(blocks.length), pinned });
  let text = '';
  for (let round = 0; round < MAX_FIT_ROUNDS; round++) {
    let fit = fitBlocks({ candidates, blocks, startClosed, lineCost, stubCost, budget, pinned });
    while (!fit.fits && unpinLeastImportant(candidates, pinned))
      fit = fitBlocks({ candidates, blocks, startClosed, lineCost, stubCost, budget, pinned });
    rendered = renderState({ format, flat, candidates, lines, blocks, closed: fit.closed, pinned });
    const belowFold = rendered.visible.filter(candidate => isBelowFold(flat, candidate.flat, metrics.viewportHeight, scrollerOf)).length;
    const header = formatHeader({ ...headerFacts, lines: rendered.lines.length, collapsed: rendered.stubs.length, belowFold });
    text = [header, ...preamble, ...rendered.lines].join('\n');
    const overshoot = estimateTokens(text) - totalBudget;
    if (overshoot <= 0) break;
    budget -= overshoot + 8;
  }
  text = cutToBudget(text, totalBudget);
  const nodes = rendered.visible.map(candidate => candidate.flat.node);
  const counts = countSnapshot(flat);
  const belowFold = rendered.visible.filter(candidate => isBelowFold(flat, candidate.flat, metrics.viewportHeight, scrollerOf)).length;
  const hidden = hiddenTextNodes(options.hidden ?? { blocks: [] });
  for (const node of hidden) refs.set(node.ref as string, node);
  const hiddenEntries = hidden.map((node, i) => ({ node, index: flat.length + i, parent: -1, depth: 0, end: flat.length + i + 1, fragment: false }));

  return {
    url,
    title,
    text,
    nodes,
    refs,
    interactiveCount: counts.interactive,
    scroll,
    fingerprint,
    pagination: paginationRefs(flat, url),
    confidence: computeConfidence(metrics, counts),
    stats: {
      rawNodes: flat.length,
      keptNodes: nodes.length,
      prunedNodes: flat.length - nodes.length,
      belowFold,
      rawChars,
      textChars: text.length,
      estimatedTokens: estimateTokens(text),
      treeTextChars: treeChars,
      tookMs: 0,
    },
    document: documentFacts,
    stubs: rendered.stubs,
    outline: { entries: hiddenEntries.length ? [...flat, ...hiddenEntries] : flat, keywords: options.keywords ?? [], origin },
  };
}

/** Last resort if the estimates above were off: whole lines go from the end, and the cut says so. */
function cutToBudget(text: string, budget: number): string {
  if (estimateTokens(text) <= budget) return text;
  const lines = text.split('\n');
  const marker = '(the rest of the page state was cut to fit the token budget: scroll, expand or find to see more)';
  while (lines.length > 3 && estimateTokens([...lines, marker].join('\n')) > budget) lines.pop();
  return [...lines, marker].join('\n');
}

/** Pins give way in reverse order of importance (new > keyword > filled control > headline > asked > urgent), the last in the page first. */
function unpinLeastImportant(candidates: readonly Candidate[], pinned: Uint8Array): boolean {
  let worst = -1;
  candidates.forEach((candidate, position) => {
    if (!pinned[position] || candidate.pin === undefined) return;
    const current = candidates[worst];
    if (worst === -1 || (current?.pin ?? 0) <= candidate.pin) worst = position;
  });
  if (worst === -1) return false;
  const level = candidates[worst]?.pin;
  // Give way in tenths of the weakest level, so a page with 150 keyword pins needs a few rounds, not 150.
  const same = candidates.flatMap((candidate, position) => (pinned[position] && candidate.pin === level ? [position] : []));
  for (const position of same.slice(-Math.max(1, Math.ceil(same.length / 10)))) pinned[position] = 0;
  return true;
}

/** Upper bound of each node's indentation: its ancestors that are lines or blocks. */
function printedDepthBound(flat: readonly FlatNode[], candidates: readonly Candidate[], blocks: readonly Block[]): Uint16Array {
  const printing = new Uint8Array(flat.length);
  for (const candidate of candidates) printing[candidate.flat.index] = 1;
  for (const block of blocks.slice(1)) printing[block.index] = 1;
  const depth = new Uint16Array(flat.length);
  for (const item of flat) {
    const parent = flat[item.parent];
    if (parent) depth[item.index] = (depth[parent.index] ?? 0) + (printing[parent.index] ?? 0);
  }
  return depth;
}

function stubEstimate(flat: readonly FlatNode[], block: Block, depth: Uint16Array): number {
  const node = block.kind === 'region' ? flat[block.index]?.node : undefined;
  const name = node?.name ? ` ${quote(node.name, 60)}` : '';
  return estimateTokens(`${indent(depth[block.index] ?? 0)}[${block.ref}] ${node?.role ?? 'more'}${name} (collapsed: `) + STUB_TAIL_TOKENS;
}

/** The agent's `expand` and `find` requests, as outline indexes of the nodes they name. */
function resolveFocus(flat: readonly FlatNode[], focus: PageFocus | undefined): { expanded: Set<number>; found: Set<number> } {
  const expanded = new Set<number>();
  const found = new Set<number>();
  if (!focus) return { expanded, found };
  const byRef = new Map<string, FlatNode>();
  for (const item of flat) if (item.node.ref) byRef.set(item.node.ref, item);
  for (const [ref, request] of focus.expanded) {
    let item = byRef.get(ref);
    if (!item) continue;
    if (request.kind !== 'run') {
      expanded.add(item.index);
      continue;
    }
    // A run's ref may sit inside one of its siblings (the sibling itself has none, or its line stays printed).
    while (request.depth !== undefined && item.depth > request.depth && flat[item.parent]) item = flat[item.parent] as FlatNode;
    const parent = flat[item.parent];
    const siblings = parent ? childrenOf(flat, parent) : flat.filter(entry => entry.parent === -1);
    const start = Math.max(0, siblings.indexOf(item) - (request.offset ?? 0));
    for (const sibling of siblings.slice(start, start + request.siblings)) expanded.add(sibling.index);
  }
  for (const ref of focus.found) {
    const item = byRef.get(ref);
    if (item) found.add(item.index);
  }
  return { expanded, found };
}

function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.origin === 'null' ? undefined : parsed.origin;
  } catch {
    return undefined;
  }
}

function toScrollState(metrics: PageMetrics): ScrollState {
  const maxY = Math.max(0, metrics.scrollHeight - metrics.viewportHeight);
  return {
    x: metrics.scrollX,
    y: metrics.scrollY,
    maxY,
    viewportHeight: metrics.viewportHeight,
    atEnd: metrics.scrollY >= maxY - 2,
  };
}

/**
 * Fragments carry no box: the nearest boxed ancestor decides. What a list scrolling inside the page hides is no
 * matter of the page's fold (scrolling the page would not show it): its list decides (`scrollerOf`, by index).
 */
function isBelowFold(flat: readonly FlatNode[], item: FlatNode, viewportHeight: number, scrollerOf: Int32Array): boolean {
  if (item.node.inViewport) return false;
  const scroller = flat[scrollerOf[item.index] ?? -1];
  if (scroller) return (scroller.node.box?.y ?? 0) >= viewportHeight;
  for (let current: FlatNode | undefined = item; current; current = flat[current.parent]) {
    const box = current.node.box;
    if (box && box.width > 0 && box.height > 0) return box.y >= viewportHeight;
  }
  return false;
}

/** For each node, the nearest scrolling container above it (-1 for none). */
function enclosingScrollers(flat: readonly FlatNode[]): Int32Array {
  const scrollerOf = new Int32Array(flat.length).fill(-1);
  for (const item of flat) {
    const parent = flat[item.parent];
    if (parent) scrollerOf[item.index] = parent.node.scroller ? parent.index : (scrollerOf[parent.index] ?? -1);
  }
  return scrollerOf;
}
