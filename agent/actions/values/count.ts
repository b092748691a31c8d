import type { Locator } from '@playwright/test';
import type { Provenance } from '../../evidence/result-schema';
import { describeLocator, type SemanticLocator } from '../../task/locator-schema';
import { NotFoundError, type ActionEnv, type HandlerOutput } from '../core/types';
import { elementPathInPage } from '../targets/element-path-in-page';
import { REF_PATTERN, refList, resolveTarget, type ResolvedTarget, type TargetArg } from '../targets/target';

/**
 * `extract` with `count`: how many elements the target names — every match of a locator, each ref of a list, or the
 * items of the one list, table or menu it names — recorded with each element counted (its CSS path or ref and its
 * text), so an auditor sees what was counted rather than a number the model stated.
 */

/** Elements whose items are what a person counts: the list's entries, the table's data rows, the menu's options. */
const CONTAINERS = {
  list: ':scope > li, :scope > [role=listitem], :scope > [role=option], :scope > [role=menuitem], :scope > [role=menuitemcheckbox], :scope > [role=menuitemradio], :scope > [role=treeitem], :scope > [role=tab], :scope > [role=radio], :scope > article, :scope > [role=article], :scope > dt',
  select: ':scope option',
  table: ':scope > tbody > tr, :scope > tr, :scope > thead > tr, :scope > tfoot > tr',
  grid: ':scope [role=row]',
} as const;
type Container = keyof typeof CONTAINERS;

/** Counted elements past this keep their text but no CSS path (one round trip each). */
const MAX_PATHS = 200;
const PREVIEW_CHARS = 60;

interface Counted {
  elements: Locator[];
  /** How the count was taken, for the record: "the items of [e12] list", "the 3 elements css=.rev matches". */
  rule: string;
  locator: string;
  refs?: string[];
  /** The one locator counted, recorded for a recipe to count again; none for a list of refs. */
  element?: SemanticLocator;
}

export async function countTarget(field: string, target: TargetArg, env: ActionEnv): Promise<HandlerOutput> {
  const counted = await countedElements(target, env);
  const parts = await describeEach(counted);
  const provenance: Provenance = {
    source: 'dom',
    url: env.page.url(),
    locator: counted.locator,
    ...(typeof target === 'string' && REF_PATTERN.test(target.trim()) ? { ref: target.trim() } : {}),
    rule: counted.rule,
    parts,
    preview: parts
      .slice(0, 3)
      .map(part => part.preview)
      .join(' · '),
    step: env.step,
    at: new Date().toISOString(),
  };
  const value = counted.elements.length;
  const examples = parts.length
    ? ` — ${parts
        .slice(0, 3)
        .map(part => JSON.stringify(part.preview))
        .join(', ')}${parts.length > 3 ? ', …' : ''}`
    : '';
  return {
    description: `${field} = ${value} (${counted.rule}${examples})`,
    ...(counted.element ? { element: counted.element } : {}),
    effects: { extracted: { field, value, provenance } },
  };
}

async function countedElements(target: TargetArg, env: ActionEnv): Promise<Counted> {
  const refs = refList(target);
  if (refs) {
    const each: ResolvedTarget[] = [];
    for (const ref of refs) each.push(await resolveTarget(ref, env));
    return { elements: each.map(r => r.locator), rule: `count of the ${refs.length} refs listed`, locator: refs.join(' '), refs };
  }
  let resolved: ResolvedTarget;
  try {
    resolved = await resolveTarget(target, env, { allowMany: true });
  } catch (error) {
    // A locator that matches nothing counts nothing; a ref that is gone is an error to fix.
    const named = typeof target === 'string' && REF_PATTERN.test(target.trim());
    if (!(error instanceof NotFoundError) || named) throw error;
    const locator = typeof target === 'string' ? target : describeLocator(target);
    return { elements: [], rule: `count of the elements ${locator} matches (none)`, locator };
  }
  const matches = await resolved.locator.all();
  const locator = describeLocator(resolved.element);
  const only = matches.length === 1 ? matches[0] : undefined;
  const kind = only ? await containerKind(only) : undefined;
  if (only && kind) {
    const items = await itemsOf(only, kind);
    const what = kind === 'table' || kind === 'grid' ? 'data rows' : 'items';
    return { elements: items, rule: `count of the ${what} of ${resolved.label}`, locator, element: resolved.element };
  }
  return { elements: matches, rule: `count of the elements ${resolved.label} matches`, locator, element: resolved.element };
}

async function containerKind(element: Locator): Promise<Container | undefined> {
  const kind = await element.evaluate(el => {
    const role = el.getAttribute('role') ?? '';
    const tag = el.localName;
    if (tag === 'select' || role === 'listbox') return tag === 'select' ? 'select' : 'list';
    if (tag === 'table' || tag === 'tbody') return 'table';
    if (role === 'grid' || role === 'table' || role === 'treegrid' || role === 'rowgroup') return 'grid';
    if (['ul', 'ol', 'menu', 'dl'].includes(tag) || ['list', 'menu', 'menubar', 'tree', 'feed', 'tablist', 'radiogroup'].includes(role))
      return 'list';
    return '';
  });
  return kind ? (kind as Container) : undefined;
}

/** The container's items; of a table, its rows that hold data cells (a header row counts nothing). */
async function itemsOf(container: Locator, kind: Container): Promise<Locator[]> {
  const candidates = await container.locator(CONTAINERS[kind]).all();
  if (kind !== 'table' && kind !== 'grid') return candidates;
  // One evaluate per row: evaluateAll finds nothing under an aria-ref locator.
  const rows: Locator[] = [];
  for (const row of candidates) if (await row.evaluate(el => el.querySelector('td, [role=cell], [role=gridcell]') !== null)) rows.push(row);
  return rows;
}

async function describeEach(counted: Counted): Promise<NonNullable<Provenance['parts']>> {
  const parts: NonNullable<Provenance['parts']> = [];
  for (const [index, element] of counted.elements.entries()) {
    const preview = await element
      .evaluate((el, max) => ((el as HTMLElement).innerText || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, max), PREVIEW_CHARS)
      .catch(() => '');
    const path = index < MAX_PATHS ? await element.evaluate(elementPathInPage).catch(() => null) : null;
    const ref = counted.refs?.[index];
    parts.push({ ...(ref ? { ref } : {}), locator: path ? `css=${path}` : `${counted.locator} #${index + 1}`, preview });
  }
  return parts;
}
