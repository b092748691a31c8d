import { isActionable } from './classify';
import type { FlatNode } from './raw';

/**
 * The page's controls that page forward, found by structure — never by a control's words alone ("Next" is also a
 * form's next tab and a date picker's next month; "15" is also a day of a calendar):
 * - controls in a pager: a container holding 2 to 12 controls named by a bare page number (a calendar's 28-31
 *   days are not one) and something that makes them pages — a step forward beside them ("Next", "›"), a number
 *   that is not a control (the page shown now), or numbers that are paging addresses; answer buttons and a keypad
 *   of digits have none of these. Or a navigation the page names as such ("Pagination", "Pager", "Pages");
 * - a link whose address is the page's own with another page of a paging parameter (`?page=3`, `offset=40`,
 *   `/page/3`), named like a step through pages;
 * - a button that loads more of a list ("Load more", "Show more results"), unless it is a disclosure or sits in
 *   running text (a review's "Show more" opens the rest of its words, not another page).
 * Nothing inside a table, a grid or a tab list is a pager control; a step back ("Previous", "«") is no new page.
 */

const STEP_WORDS = /^(next|next page|older|more|last|[»›→]+|next\s*[»›→]+)$/i;
const PAGE_NUMBER = /^\d{1,4}$/;
const LOAD_MORE = /^(load|show|see|view) more\b/i;
const PAGER_NAME = /\bpag(e|es|er|ing|ination)\b/i;
const PAGING_PARAMETER = /^(page|p|pg|paged|offset|start|from|skip|after|before|cursor)$/i;
const PAGING_PATH = /\/page\/\d+\/?$/i;
const MIN_PAGE_NUMBERS = 2;
const MAX_PAGE_NUMBERS = 12;
/** How far up from a control its pager may sit (a link in a list item in a list in a nav). */
const PAGER_DEPTH = 3;
const NEVER_PAGERS = new Set(['table', 'grid', 'treegrid', 'row', 'tablist', 'menu', 'menubar', 'listbox', 'tree']);
const STEPPING_ROLES = new Set(['link', 'button']);

export function paginationRefs(flat: readonly FlatNode[], pageUrl: string): Set<string> {
  const refs = new Set<string>();
  const pagerVerdict = new Map<number, boolean>();
  const isPager = (container: FlatNode): boolean => {
    let verdict = pagerVerdict.get(container.index);
    if (verdict === undefined) {
      verdict = holdsPageNumbers(flat, container, pageUrl) || (container.node.role === 'navigation' && PAGER_NAME.test(container.node.name ?? ''));
      pagerVerdict.set(container.index, verdict);
    }
    return verdict;
  };
  for (const item of flat) {
    const node = item.node;
    if (!node.ref || !isActionable(item) || !(STEPPING_ROLES.has(node.role) || node.clickable) || insideNeverPager(flat, item)) continue;
    const label = (node.name ?? node.text ?? '').trim();
    const steps = STEP_WORDS.test(label) || PAGE_NUMBER.test(label);
    if (steps && ancestors(flat, item, PAGER_DEPTH).some(isPager)) refs.add(node.ref);
    else if (steps && node.url && isPagingAddress(node.url, pageUrl)) refs.add(node.ref);
    else if (LOAD_MORE.test(label) && node.states.expanded === undefined && !inRunningText(flat, item)) refs.add(node.ref);
  }
  return refs;
}

function holdsPageNumbers(flat: readonly FlatNode[], container: FlatNode, pageUrl: string): boolean {
  if (NEVER_PAGERS.has(container.node.role)) return false;
  const numbers = new Set<string>();
  let paging = false;
  for (let index = container.index + 1; index < container.end; index++) {
    const item = flat[index] as FlatNode;
    if (NEVER_PAGERS.has(item.node.role)) {
      index = item.end - 1;
      continue;
    }
    const label = (item.node.name ?? item.node.text ?? '').trim();
    if (!isActionable(item)) {
      // The page shown now is often a number that is no link.
      if (PAGE_NUMBER.test(label) && item.node.role !== 'heading') paging = true;
      continue;
    }
    if (PAGE_NUMBER.test(label)) {
      numbers.add(label);
      if (item.node.url && isPagingAddress(item.node.url, pageUrl)) paging = true;
    } else if (STEP_WORDS.test(label)) paging = true;
    if (numbers.size > MAX_PAGE_NUMBERS) return false;
  }
  return numbers.size >= MIN_PAGE_NUMBERS && paging;
}

/** A control inside a paragraph (a review's "Show more"): it opens words, not another page of a list. */
function inRunningText(flat: readonly FlatNode[], item: FlatNode): boolean {
  return flat[item.parent]?.node.role === 'paragraph';
}

function ancestors(flat: readonly FlatNode[], item: FlatNode, depth: number): FlatNode[] {
  const found: FlatNode[] = [];
  for (let parent = flat[item.parent]; parent && found.length < depth; parent = flat[parent.parent]) found.push(parent);
  return found;
}

function insideNeverPager(flat: readonly FlatNode[], item: FlatNode): boolean {
  if (item.node.role === 'tab') return true;
  for (let parent = flat[item.parent]; parent; parent = flat[parent.parent]) if (NEVER_PAGERS.has(parent.node.role)) return true;
  return false;
}

/** The page's own address with another value of a paging parameter, or the same path with a /page/N ending. */
function isPagingAddress(url: string, pageUrl: string): boolean {
  let target: URL;
  let page: URL;
  try {
    page = new URL(pageUrl);
    target = new URL(url, page);
  } catch {
    return false;
  }
  if (target.origin !== page.origin) return false;
  if (PAGING_PATH.test(target.pathname)) return true;
  if (target.pathname !== page.pathname) return false;
  return [...target.searchParams.keys()].some(key => PAGING_PARAMETER.test(key) && target.searchParams.get(key) !== page.searchParams.get(key));
}
