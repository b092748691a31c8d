import { matchesKeywords } from './keywords';
import type { FlatNode } from './raw';
import {
  CONTENT_ROLES, FORM_CONTROL_ROLES, INTERACTIVE_ROLES, NAMED_CONTAINER_ROLES, PLAIN_TEXT_ROLES,
  TABLE_CELL_ROLES, URGENT_ROLES,
} from './roles';
import { enclosingTable, foldTableRows, markSiteChrome, markSubtrees } from './structure';
import type { SnapshotNode } from './types';

/**
 * Passes 1–3 of the seeds' filter, as a pure function over the flattened snapshot:
 * 1. drop page chrome (unless it holds a keyword match) and contentless wrappers (their children stay);
 * 2. keep semantic roles and meaningful text, folding each table row into one line;
 * 3. score: controls > links/buttons > headings > text, +viewport, +keyword, +inside a dialog.
 * Pass 4 (budget) lives in budget.ts.
 */

export type NodeKind = 'urgent' | 'control' | 'interactive' | 'heading' | 'status' | 'image' | 'container' | 'content' | 'text';

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
/** For the section under a matching heading and the rows of a table with a matching row: the answer often sits next to the words. */
export const KEYWORD_CONTEXT_BONUS = 4;
export const KEYWORD_CONTEXT_LIMIT = 60;
/**
 * Keyword matches beyond this many are no longer pinned (they still carry the keyword bonus): a keyword
 * like "paid" matching 1,000 ledger rows must not blow the context window.
 */
export const MAX_PINNED_KEYWORD_MATCHES = 150;
/** "View", "Edit", "Star" repeated down a list mean nothing without their row or card: rank them after it. */
export const REPEATED_NAME_PENALTY = 1.5;
export const REPEATED_NAME_MIN = 4;

export interface Candidate {
  flat: FlatNode;
  kind: NodeKind;
  /** Survives the token budget no matter what: keyword matches, filled controls, dialogs/alerts, mustKeep. */
  pinned: boolean;
  keyword: boolean;
  /** Kept from a dropped chrome region (keyword or mustKeep): print its landmark. */
  fromChrome: boolean;
}

export interface PruneOptions {
  /** Lower-cased (see normalizeKeywords). */
  keywords: readonly string[];
  mustKeep?: (node: SnapshotNode) => boolean;
}

export interface PruneResult {
  candidates: Candidate[];
  chromeRegions: number;
}

export function selectCandidates(flat: readonly FlatNode[], options: PruneOptions): PruneResult {
  const chrome = markSiteChrome(flat, (item) => classify(flat, item) !== undefined);
  const inDialog = markSubtrees(flat, (item) => item.node.role === 'dialog' || item.node.role === 'alertdialog');
  const consumed = foldTableRows(flat);
  const candidates: Candidate[] = [];
  let keywordPins = 0;
  for (const item of flat) {
    const node = item.node;
    const forced = options.mustKeep?.(node) ?? false;
    if (consumed[item.index] && !forced) continue;
    let kind = classify(flat, item);
    if (!kind && !forced) continue;
    kind ??= 'text';
    const keyword = matchesKeywords(node, options.keywords);
    const fromChrome = chrome.mask[item.index] === 1;
    if (fromChrome && !keyword && !forced) continue;
    node.score = BASE_SCORE[kind] + (node.inViewport ? VIEWPORT_BONUS : 0) + (keyword ? KEYWORD_BONUS : 0)
      + (inDialog[item.index] ? DIALOG_BONUS : 0);
    const pinnedByKeyword = keyword && keywordPins < MAX_PINNED_KEYWORD_MATCHES;
    const pinned = forced || pinnedByKeyword || kind === 'urgent' || (kind === 'control' && hasValue(node));
    if (pinnedByKeyword) keywordPins++;
    candidates.push({ flat: item, kind, pinned, keyword, fromChrome });
  }
  rankRepeatedControlsAfterTheirContext(flat, candidates);
  boostKeywordContext(flat, candidates);
  return { candidates, chromeRegions: chrome.regions };
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
      node.score -= REPEATED_NAME_PENALTY;
    } else if (node.role === 'row' && hasInteractiveDescendant(flat, candidate.flat)) {
      node.score += BASE_SCORE.interactive - BASE_SCORE[candidate.kind];
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
    if (child && (INTERACTIVE_ROLES.has(child.node.role) || child.node.clickable)) return true;
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
    candidate.flat.node.score += KEYWORD_CONTEXT_BONUS;
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

function classify(flat: readonly FlatNode[], item: FlatNode): NodeKind | undefined {
  const node = item.node;
  const role = node.role;
  if (item.fragment) return isMeaningfulText(node.text) && !isLabelEcho(flat, item) ? 'text' : undefined;
  if (URGENT_ROLES.has(role)) return 'urgent';
  if (FORM_CONTROL_ROLES.has(role)) return 'control';
  if (INTERACTIVE_ROLES.has(role)) return 'interactive';
  const label = node.name ?? node.text;
  if (PLAIN_TEXT_ROLES.has(role) || role === 'none' || role === 'presentation') {
    if (node.clickable && node.ref && label) return 'interactive';
    return isMeaningfulText(label) && !isLabelEcho(flat, item) ? 'text' : undefined;
  }
  if (label && normalizeLabel(flat[item.parent]?.node.name) === normalizeLabel(label)) return undefined;
  if (role === 'heading') return label ? 'heading' : undefined;
  if (role === 'status' || role === 'progressbar' || role === 'meter' || role === 'log') {
    return label || node.value ? 'status' : undefined;
  }
  if (role === 'img') return node.name ? 'image' : undefined;
  if (TABLE_CELL_ROLES.has(role) || role === 'listitem') {
    return label && !echoesInteractiveDescendant(flat, item, label) ? 'content' : undefined;
  }
  if (CONTENT_ROLES.has(role)) return label ? 'content' : undefined;
  if (NAMED_CONTAINER_ROLES.has(role)) return node.name ? 'container' : undefined;
  if (node.clickable && node.ref && label) return 'interactive';
  return isMeaningfulText(label) ? 'text' : undefined;
}

/** At least two letters or digits: drops separators, bullets and lone punctuation. */
export function isMeaningfulText(value: string | undefined): boolean {
  return !!value && /[\p{L}\p{N}][^]*[\p{L}\p{N}]/u.test(value);
}

function normalizeLabel(value: string | undefined): string {
  return (value ?? '').toLowerCase().replace(/[\s:*]+$/, '').trim();
}

/** A bare label string next to the control it names (`Search` beside textbox "Search") says nothing new. */
function isLabelEcho(flat: readonly FlatNode[], item: FlatNode): boolean {
  const text = normalizeLabel(item.node.text ?? item.node.name);
  const parent = flat[item.parent];
  if (parent && normalizeLabel(parent.node.name) === text) return true;
  const next = flat[item.index + 1];
  if (next && next.parent === item.parent && normalizeLabel(next.node.name) === text) return true;
  const previous = previousSibling(flat, item);
  return !!previous && normalizeLabel(previous.node.name) === text;
}

function previousSibling(flat: readonly FlatNode[], item: FlatNode): FlatNode | undefined {
  let index = item.index - 1;
  while (index > item.parent) {
    const candidate = flat[index];
    if (!candidate) return undefined;
    if (candidate.parent === item.parent) return candidate;
    index = candidate.parent;
  }
  return undefined;
}

/** A cell or list item whose label is just its link's name: the link line already says it. */
function echoesInteractiveDescendant(flat: readonly FlatNode[], item: FlatNode, label: string): boolean {
  for (let index = item.index + 1; index < item.end; index++) {
    const child = flat[index];
    if (child && INTERACTIVE_ROLES.has(child.node.role) && child.node.name === label) return true;
  }
  return false;
}
