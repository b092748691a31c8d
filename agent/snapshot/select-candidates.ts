import { findAnchors, type Anchors } from './anchors';
import { classify, isActionable, type NodeKind } from './classify';
import { foldControlContent } from './control-content';
import { measureText } from './density';
import { findInlineGroups, type InlineGroup } from './inline';
import { matchesKeywords, textMatchesKeywords, type Keyword } from './keywords';
import type { FlatNode } from './raw';
import { defaultCollapsedRegions } from './regions';
import { FORM_CONTROL_ROLES } from './roles';
import { enclosingTable, foldDataRows } from './tables';
import { EXPANDED_TEXT_CHARS, LEDE_TEXT_CHARS } from './serialize';
import type { SnapshotNode } from './types';

/**
 * Which nodes get a line, how they rank, and what is pinned, as a pure function over the flattened snapshot:
 * 1. fold data rows and running text (inline.ts) into one line each; drop contentless wrappers (their
 *    children stay);
 * 2. keep semantic roles, every actionable element and every meaningful text, however short;
 * 3. score: controls > links/buttons > headings > text, +viewport, +keyword, +dialog, +new since the last
 *    look, +asked for; pin what must be seen (dialogs, filled controls, the headline block, the home link,
 *    keyword matches, what the agent found or expanded);
 * 4. mark the regions collapsed by default (regions.ts).
 * The budget (budget.ts) then decides what else collapses into stubs.
 */

export type { NodeKind } from './classify';

const BASE_SCORE: Record<NodeKind, number> = {
  urgent: 8,
  control: 6,
  interactive: 5,
  heading: 4,
  status: 4,
  image: 2,
  container: 1.5,
  content: 1,
  text: 1,
};
export const VIEWPORT_BONUS = 2;
export const KEYWORD_BONUS = 20;
export const DIALOG_BONUS = 3;
export const NEW_BONUS = 10;
export const FOCUS_BONUS = 40;
/** After this many lines of an expanded region, its bonus has halved. */
export const FOCUS_FADE_ITEMS = 20;
/** For the section under a matching heading and the rows of a table with a matching row: the answer often sits next to the words. */
export const KEYWORD_CONTEXT_BONUS = 4;
export const KEYWORD_CONTEXT_LIMIT = 60;
/** Keyword matches beyond this many still carry the bonus but are not pinned: "paid" matching 1,000 ledger rows. */
export const MAX_PINNED_KEYWORD_MATCHES = 150;
/** What appeared since the last look is pinned only while it is a change, not a new page. */
export const MAX_PINNED_NEW = 40;
/** "View", "Edit", "Star" repeated down a list mean nothing without their row or card: rank them after it. */
export const REPEATED_NAME_PENALTY = 1.5;
export const REPEATED_NAME_MIN = 4;
/** Shorter than this, a line after the headline is a byline or a caption, not the lede. */
export const LEDE_MIN_CHARS = 80;

/** Lower is more important: when pinned lines alone exceed the budget, the last ones give way first. */
export enum Pin {
  Urgent = 0,
  Asked = 1,
  Headline = 2,
  FilledControl = 3,
  Keyword = 4,
  New = 5,
}

export interface Candidate {
  flat: FlatNode;
  kind: NodeKind;
  /** Running text printed as one line with its controls in place. */
  group?: InlineGroup;
  pin?: Pin;
  keyword: boolean;
  /** Kept from a collapsed region: print its landmark. */
  fromChrome: boolean;
  score: number;
  /** How much prose the line shows, when more than the default (the lede, an expanded region). */
  textLimit?: number;
  /** Inside a region the agent expanded. */
  focused?: boolean;
}

export interface PruneOptions {
  keywords: readonly Keyword[];
  mustKeep?: (node: SnapshotNode) => boolean;
  pageUrl: string;
  title: string;
  /** Indexes of nodes the agent expanded (their regions open, their content ranks first) or found (pinned). */
  expanded: ReadonlySet<number>;
  found: ReadonlySet<number>;
  /** Refs of the previous look at the same page, to tell what is new. */
  previousRefs?: ReadonlySet<string>;
}

export interface PruneResult {
  candidates: Candidate[];
  /** Regions printed as stubs unless the budget or the agent opens them. */
  collapsed: Set<number>;
  chromeRegions: number;
  anchors: Anchors;
}

export function selectCandidates(flat: readonly FlatNode[], options: PruneOptions): PruneResult {
  const consumed = foldDataRows(flat);
  foldControlContent(flat, consumed);
  const groups = findInlineGroups(flat, consumed);
  const kindOf = (item: FlatNode): NodeKind | undefined =>
    consumed[item.index] ? undefined : groups.has(item.index) ? groupKind(flat, groups.get(item.index) as InlineGroup) : classify(flat, item);
  const density = measureText(flat);
  const anchors = findAnchors(flat, options.pageUrl, options.title, density, item => kindOf(item) !== undefined);
  const regions = defaultCollapsedRegions(flat, anchors, density, item => kindOf(item) !== undefined, options.expanded);
  const inDialog = markSubtrees(flat, item => item.node.role === 'dialog' || item.node.role === 'alertdialog');
  // A dialog on screen is what the page is asking now: all of it shows (an off-screen drawer is just content).
  const inOpenDialog = markSubtrees(flat, item => (item.node.role === 'dialog' || item.node.role === 'alertdialog') && item.node.inViewport);
  const inCollapsed = markSubtrees(flat, item => regions.collapsed.has(item.index));
  const inExpanded = expandedMask(flat, options.expanded);
  const isNew = newSinceLastLook(flat, options.previousRefs);

  const candidates: Candidate[] = [];
  let keywordPins = 0;
  let newPins = 0;
  let expandedSeen = 0;
  for (const item of flat) {
    const node = item.node;
    const forced = options.mustKeep?.(node) ?? false;
    if (consumed[item.index] && !forced) continue;
    const kind = kindOf(item) ?? (forced ? 'text' : undefined);
    if (!kind) continue;
    const group = groups.get(item.index);
    const keyword = matchesKeywords(node, options.keywords) || (!!group && groupMatches(flat, group, options.keywords));
    const fresh = isNew[item.index] === 1;
    const score =
      BASE_SCORE[kind] +
      (node.inViewport ? VIEWPORT_BONUS : 0) +
      (keyword ? KEYWORD_BONUS : 0) +
      (inDialog[item.index] ? DIALOG_BONUS : 0) +
      (fresh ? NEW_BONUS : 0) +
      (inExpanded[item.index] ? focusBonus(expandedSeen++) : 0);
    let pin: Pin | undefined;
    if (kind === 'urgent' || inOpenDialog[item.index]) pin = Pin.Urgent;
    else if (forced || options.found.has(item.index)) pin = Pin.Asked;
    else if (anchors.block.has(item.index) || anchors.home === item.index) pin = Pin.Headline;
    else if (kind === 'control' && (hasValue(node) || (inCollapsed[item.index] && FORM_CONTROL_ROLES.has(node.role) && isTextEntry(node))))
      pin = Pin.FilledControl;
    else if (keyword && keywordPins < MAX_PINNED_KEYWORD_MATCHES) pin = Pin.Keyword;
    else if (fresh && newPins < MAX_PINNED_NEW) pin = Pin.New;
    if (pin === Pin.Keyword) keywordPins++;
    if (pin === Pin.New) newPins++;
    const candidate: Candidate = { flat: item, kind, group, pin, keyword, fromChrome: inCollapsed[item.index] === 1, score };
    if (inExpanded[item.index]) {
      candidate.textLimit = EXPANDED_TEXT_CHARS;
      candidate.focused = true;
    }
    candidates.push(candidate);
  }
  markLede(candidates, anchors);
  rankRepeatedControlsAfterTheirContext(flat, candidates);
  boostKeywordContext(flat, candidates);
  return { candidates, collapsed: regions.collapsed, chromeRegions: regions.chromeRegions, anchors };
}

/** The first paragraph of prose after the headline (the lede) reads further than the rest: it says what the page is. */
function markLede(candidates: readonly Candidate[], anchors: Anchors): void {
  if (anchors.headline === undefined) return;
  const lede = candidates.find(
    candidate =>
      candidate.flat.index > (anchors.headline as number) &&
      !anchors.block.has(candidate.flat.index) &&
      (candidate.kind === 'text' || candidate.group !== undefined) &&
      proseLength(candidate) >= LEDE_MIN_CHARS,
  );
  if (lede) lede.textLimit = Math.max(lede.textLimit ?? 0, LEDE_TEXT_CHARS);
}

function proseLength(candidate: Candidate): number {
  if (!candidate.group) return (candidate.flat.node.text ?? candidate.flat.node.name ?? '').length;
  return candidate.group.pieces.reduce((sum, piece) => sum + (piece.kind === 'text' ? piece.text.length : 0), 0);
}

/** A search box in the site header is how a person starts: it stays in view even when the header is collapsed. */
function isTextEntry(node: SnapshotNode): boolean {
  return node.role === 'searchbox' || node.role === 'textbox' || node.role === 'combobox';
}

function groupKind(flat: readonly FlatNode[], group: InlineGroup): NodeKind {
  const host = flat[group.host]?.node;
  if (host?.role === 'heading') return 'heading';
  return group.pieces.some(piece => piece.kind === 'element') ? 'interactive' : 'text';
}

function groupMatches(flat: readonly FlatNode[], group: InlineGroup, keywords: readonly Keyword[]): boolean {
  return group.pieces.some(piece =>
    piece.kind === 'text' ? textMatchesKeywords(piece.text, keywords) : matchesKeywords((flat[piece.index] as FlatNode).node, keywords),
  );
}

export function markSubtrees(flat: readonly FlatNode[], isRoot: (item: FlatNode) => boolean): Uint8Array {
  const mask = new Uint8Array(flat.length);
  for (const item of flat) {
    if (!mask[item.index] && isRoot(item)) mask.fill(1, item.index, item.end);
  }
  return mask;
}

/**
 * What the agent expanded ranks first, in reading order: when all of a long region cannot fit, its tail
 * closes into a stub and its head stays, rather than the whole region closing again.
 */
function focusBonus(ordinal: number): number {
  return (FOCUS_BONUS * FOCUS_FADE_ITEMS) / (FOCUS_FADE_ITEMS + ordinal);
}

function expandedMask(flat: readonly FlatNode[], expanded: ReadonlySet<number>): Uint8Array {
  const mask = new Uint8Array(flat.length);
  for (const index of expanded) {
    const item = flat[index];
    if (item) mask.fill(1, item.index, item.end);
  }
  return mask;
}

/**
 * Refs are stable across snapshots of the same page, so a ref the last look did not have is something that
 * appeared since (a menu opened, a message shown). When most of the page is new, it is a new page instead.
 */
function newSinceLastLook(flat: readonly FlatNode[], previousRefs: ReadonlySet<string> | undefined): Uint8Array {
  const mask = new Uint8Array(flat.length);
  if (!previousRefs || previousRefs.size === 0) return mask;
  let withRef = 0;
  let fresh = 0;
  for (const item of flat) {
    if (!item.node.ref || item.node.ref.startsWith('c')) continue;
    withRef++;
    if (!previousRefs.has(item.node.ref)) fresh++;
  }
  if (fresh === 0 || fresh > withRef / 2) return mask;
  for (const item of flat) {
    if (item.node.ref && !item.node.ref.startsWith('c') && !previousRefs.has(item.node.ref)) mask.fill(1, item.index, item.end);
  }
  return mask;
}

/**
 * A row holding links scores like a link, so (ties go to document order) it enters the budget just
 * before its own links; outside rows, links whose name repeats down the page rank below headings.
 */
function rankRepeatedControlsAfterTheirContext(flat: readonly FlatNode[], candidates: readonly Candidate[]): void {
  const nameCounts = new Map<string, number>();
  for (const { kind, flat: item } of candidates) {
    if (kind === 'interactive' && item.node.name) nameCounts.set(item.node.name, (nameCounts.get(item.node.name) ?? 0) + 1);
  }
  for (const candidate of candidates) {
    const node = candidate.flat.node;
    const repeated = candidate.kind === 'interactive' && node.name && (nameCounts.get(node.name) ?? 0) >= REPEATED_NAME_MIN;
    if (repeated && !enclosingRow(flat, candidate.flat)) {
      candidate.score -= REPEATED_NAME_PENALTY;
    } else if (node.role === 'row' && hasInteractiveDescendant(flat, candidate.flat)) {
      candidate.score += BASE_SCORE.interactive - BASE_SCORE[candidate.kind];
    }
  }
}

function enclosingRow(flat: readonly FlatNode[], item: FlatNode): FlatNode | undefined {
  for (let parent = flat[item.parent]; parent; parent = flat[parent.parent]) {
    if (parent.node.role === 'row') return parent;
  }
  return undefined;
}

function hasInteractiveDescendant(flat: readonly FlatNode[], item: FlatNode): boolean {
  for (let index = item.index + 1; index < item.end; index++) {
    const child = flat[index];
    if (child && isActionable(child)) return true;
  }
  return false;
}

/** A matching heading lends relevance to its section; a matching row or cell to the rest of its table. */
function boostKeywordContext(flat: readonly FlatNode[], candidates: readonly Candidate[]): void {
  const boosted = new Set<Candidate>();
  const boostedTables = new Set<number>();
  const boost = (candidate: Candidate): void => {
    if (candidate.keyword || boosted.has(candidate)) return;
    boosted.add(candidate);
    candidate.score += KEYWORD_CONTEXT_BONUS;
  };
  candidates.forEach((match, position) => {
    if (!match.keyword) return;
    if (match.flat.node.role === 'heading') {
      const level = match.flat.node.states.level ?? 6;
      for (let next = position + 1, count = 0; next < candidates.length && count < KEYWORD_CONTEXT_LIMIT; next++, count++) {
        const candidate = candidates[next];
        if (!candidate) break;
        if (candidate.flat.node.role === 'heading' && (candidate.flat.node.states.level ?? 6) <= level) break;
        boost(candidate);
      }
      return;
    }
    const table = enclosingTable(flat, match.flat);
    if (!table || boostedTables.has(table.index)) return;
    boostedTables.add(table.index);
    let count = 0;
    for (const candidate of candidates) {
      if (count >= KEYWORD_CONTEXT_LIMIT) break;
      if (candidate.flat.index <= table.index || candidate.flat.index >= table.end) continue;
      boost(candidate);
      count++;
    }
  });
}

export function hasValue(node: SnapshotNode): boolean {
  const { checked, selected } = node.states;
  return (node.value !== undefined && node.value !== '') || checked === true || checked === 'mixed' || selected === true;
}
