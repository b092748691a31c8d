import type { Page } from '@playwright/test';
import type { SemanticLocator } from '../../task/locator-schema';
import { INTERACTIVE_ROLES } from '../../snapshot/roles';
import { ActionError, type KnownElement } from '../core/types';

/** Roles the page state prints besides the interactive ones. */
const OTHER_ROLES = [
  'gridcell',
  'heading',
  'img',
  'listitem',
  'list',
  'row',
  'cell',
  'columnheader',
  'rowheader',
  'table',
  'grid',
  'dialog',
  'alertdialog',
  'alert',
  'status',
  'navigation',
  'main',
  'region',
  'article',
  'paragraph',
  'tabpanel',
  'tablist',
  'group',
  'banner',
  'contentinfo',
  'complementary',
  'form',
  'search',
  'progressbar',
  'meter',
  'tooltip',
  'figure',
  'term',
  'definition',
  'note',
  'toolbar',
  'tree',
  'menu',
  'menubar',
  'radiogroup',
  'iframe',
  'code',
  'blockquote',
  'caption',
  'generic',
];

/** Roles the page state prints, so `button "Follow"` is read as a role and a name and `said "hi"` as plain text. */
export function isAriaRole(word: string): boolean {
  return INTERACTIVE_ROLES.has(word) || OTHER_ROLES.includes(word);
}

/**
 * Every ref a page has shown the model, so a stale ref can still be named ("e7 was button "Follow"") and
 * matched to its replacement in the latest snapshot.
 */
const seenByPage = new WeakMap<Page, Map<string, KnownElement>>();

export function rememberElements(page: Page, elements: ReadonlyMap<string, KnownElement>): void {
  let seen = seenByPage.get(page);
  if (!seen) seenByPage.set(page, (seen = new Map()));
  for (const [ref, element] of elements) seen.set(ref, element);
}

export function rememberedElement(page: Page, ref: string): KnownElement | undefined {
  return seenByPage.get(page)?.get(ref);
}

/**
 * The snapshot element the model means by a name: an interactive one first. Several interactive elements
 * with that name is an ambiguity the model must settle with a ref.
 */
export function findKnownByName(elements: ReadonlyMap<string, KnownElement>, name: string, role?: string): KnownElement | undefined {
  const all = [...elements.values()].filter(e => e.ref && (role === undefined || e.role === role));
  const lower = name.toLowerCase();
  for (const matches of [all.filter(e => e.name === name), all.filter(e => e.name?.toLowerCase() === lower)]) {
    const interactive = matches.filter(e => INTERACTIVE_ROLES.has(e.role));
    if (interactive.length === 1) return interactive[0];
    if (interactive.length > 1) throw new AmbiguousName(name, interactive);
    if (matches.length === 1) return matches[0];
  }
  return undefined;
}

export class AmbiguousName extends ActionError {
  constructor(name: string, matches: KnownElement[]) {
    super(
      `${JSON.stringify(name)} matches ${matches.length} elements: ${matches.slice(0, 5).map(describeWithRef).join(', ')} — use the ref of the one you mean`,
    );
  }
}

export function similarElements(elements: ReadonlyMap<string, KnownElement>, known: KnownElement, ref: string): string[] {
  const others = [...elements.values()].filter(e => e.ref && e.ref !== ref);
  const sameRoleAndName = others.filter(e => e.role === known.role && e.name !== undefined && e.name === known.name);
  const sameName = others.filter(e => known.name !== undefined && e.name === known.name);
  return (sameRoleAndName.length ? sameRoleAndName : sameName).slice(0, 3).map(describeWithRef);
}

/** Snapshot elements whose name or text is exactly this, for ambiguity messages. */
export function listKnown(elements: ReadonlyMap<string, KnownElement>, name: string): string[] {
  return [...elements.values()]
    .filter(e => e.ref && (e.name === name || e.text === name))
    .slice(0, 5)
    .map(describeWithRef);
}

/** Enough of a name to tell the element apart; a long text is what an extract reads, and its outcome shows it. */
const LABEL_NAME_CHARS = 60;

export function describeKnown(element: KnownElement): string {
  const name = element.name ?? element.text;
  if (!name) return element.role;
  return `${element.role} ${JSON.stringify(name.length > LABEL_NAME_CHARS ? `${name.slice(0, LABEL_NAME_CHARS - 1)}…` : name)}`;
}

function describeWithRef(element: KnownElement): string {
  return `[${element.ref}] ${describeKnown(element)}`;
}

export function semanticOf(known: KnownElement): SemanticLocator {
  if (known.name) return { role: known.role, name: known.name };
  if (known.text) return { text: known.text.slice(0, 100) };
  return { role: known.role };
}
