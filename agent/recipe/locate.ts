import type { ElementHandle, Page } from '@playwright/test';
import { resolveTarget } from '../actions/targets/target';
import type { SemanticLocator } from '../task/locator-schema';

/**
 * Finding, on the live page, a way to point at an element that does not depend on the sample: the
 * page's own labels, test ids and stable attributes instead of the text the element happens to show.
 */

export type Handle = ElementHandle<Element>;

/**
 * A snapshot role is not always one Playwright's role engine finds by name (a "generic" with a name from its
 * text, a <summary>): the same element by its visible text is the fallback.
 */
export function recordedForms(locator: SemanticLocator): SemanticLocator[] {
  const forms: SemanticLocator[] = [locator];
  const shown = 'role' in locator ? locator.name : 'text' in locator ? locator.text : undefined;
  if ('role' in locator && shown) forms.push({ text: shown, exact: true }, { text: shown });
  // The snapshot prints decorations next to a text ("› ENG-101"): the words alone are what the page matches.
  // Inputs inside a longer name ("Wednesday, {{start_month}} {{start_day}}, …"): the part they span, matched as a substring.
  const span = shown ? /\{\{[^}]+\}\}(?:.*\{\{[^}]+\}\})?/.exec(shown)?.[0] : undefined;
  if ('role' in locator && shown && span && span !== shown) forms.push({ role: locator.role, name: span });
  const words = shown?.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (shown && words && words !== shown) forms.push({ text: words, exact: true }, { text: words });
  // A count in a name ("Checks 4") differs from sample to sample; the words around it do not.
  const countless = shown?.replace(/\s*\(?\d[\d,.]*\)?\s*/g, ' ').trim();
  const labelLike = countless !== undefined && countless.split(/\s+/).length <= 3 && /^[\p{L} ]+$/u.test(countless);
  if ('role' in locator && shown && countless && countless !== shown && labelLike) forms.push({ role: locator.role, name: countless });
  return forms;
}

/**
 * The element(s) a recorded locator (or its text form) points at now. Several same-named links (a list of
 * "Details"): the one whose address is where the step led; otherwise the first, as the ref most likely was.
 */
export async function recordedElements(
  page: Page,
  locator: SemanticLocator,
  all: boolean,
  ledTo?: string,
): Promise<{ form: SemanticLocator; elements: Handle[] } | undefined> {
  for (const form of recordedForms(locator)) {
    const elements = await elementsOf(page, form, all || ledTo !== undefined).catch(() => [] as Handle[]);
    if (!elements.length) continue;
    if (all) return { form, elements };
    const led = ledTo ? await firstLeadingTo(elements, ledTo) : undefined;
    return { form, elements: [led ?? elements[0]!] };
  }
  return undefined;
}

/**
 * The elements recorded by CSS path when the model named them by ref, each found alone; checked against the
 * recorded role and name when they say more than a role (an unnamed paragraph fits any of them).
 */
export async function elementsAtPaths(page: Page, paths: readonly string[] | undefined, recorded?: SemanticLocator): Promise<Handle[] | undefined> {
  if (!paths?.length) return undefined;
  const elements: Handle[] = [];
  for (const path of paths) {
    const [one, ...more] = (await page
      .locator(path)
      .elementHandles()
      .catch(() => [])) as Handle[];
    if (!one || more.length) return undefined;
    elements.push(one);
  }
  if (!recorded || !namesSomething(recorded)) return elements;
  const named = await recordedElements(page, recorded, true);
  return named && (await everyAmong(elements, named.elements)) ? elements : undefined;
}

const namesSomething = (locator: SemanticLocator) => !('role' in locator) || locator.name !== undefined;

async function everyAmong(elements: Handle[], pool: Handle[]): Promise<boolean> {
  for (const element of elements) if (!(await isAmong(element, pool))) return false;
  return true;
}

async function isAmong(element: Handle, pool: Handle[]): Promise<boolean> {
  for (const candidate of pool) if (await element.evaluate((a, b) => a === b, candidate)) return true;
  return false;
}

/** The same elements were already tried (found again another way). */
export async function seenBefore(elements: Handle[], tried: readonly Handle[][]): Promise<boolean> {
  for (const earlier of tried) if (earlier.length === elements.length && (await everyAmong(elements, earlier))) return true;
  return false;
}

async function firstLeadingTo(elements: Handle[], url: string): Promise<Handle | undefined> {
  for (const element of elements) {
    const href = await element.evaluate(e => (e.closest('a[href]') as HTMLAnchorElement | null)?.href ?? '').catch(() => '');
    if (href && href.split('#')[0] === url.split('#')[0]) return element;
  }
  return undefined;
}

/** The element(s) a locator points at now (an ambiguous one: its first match); none without waiting when absent. */
export async function elementsOf(page: Page, locator: SemanticLocator, all: boolean): Promise<Handle[]> {
  if (!(await presentNow(page, locator))) return [];
  const resolved = await resolveTarget(locator, { page, elements: new Map() }, { allowMany: true });
  const handles = all ? await resolved.locator.elementHandles() : [await resolved.locator.first().elementHandle({ timeout: 2_000 })];
  return handles.filter((h): h is Handle => h !== null);
}

/**
 * The page is settled while a recipe is bound: a locator that matches nothing now will not match later, so it
 * is ruled out at once instead of after the action layer's grace period.
 */
async function presentNow(page: Page, locator: SemanticLocator): Promise<boolean> {
  const quick = (() => {
    if ('role' in locator)
      return page.getByRole(
        locator.role as Parameters<Page['getByRole']>[0],
        locator.name === undefined ? {} : { name: locator.name, exact: locator.exact },
      );
    if ('label' in locator) return page.getByLabel(locator.label);
    if ('text' in locator) return page.getByText(locator.text, { exact: locator.exact });
    if ('placeholder' in locator) return page.getByPlaceholder(locator.placeholder);
    if ('testId' in locator) return page.getByTestId(locator.testId);
    return page.locator(locator.css);
  })();
  return (await quick.count().catch(() => 0)) > 0;
}

/** The smallest element inside (or equal to) el whose text is exactly one of the forms; else el itself. */
export async function narrowTo(el: Handle, forms: readonly string[]): Promise<Handle> {
  if (forms.length === 0) return el;
  const found = await el.evaluateHandle(
    (root, wanted) => {
      if (root instanceof HTMLInputElement || root instanceof HTMLTextAreaElement || root instanceof HTMLSelectElement) return root;
      const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
      const text = (e: Element) => norm((e as HTMLElement).innerText || e.textContent || '');
      let exact: Element | null = null;
      const walk = (e: Element) => {
        for (const child of Array.from(e.children)) walk(child);
        if (!exact && wanted.includes(text(e))) exact = e;
      };
      walk(root);
      return exact ?? root;
    },
    [...forms],
  );
  return found.asElement() ?? el;
}

/** Whether a locator points at exactly these elements now. */
export async function pointsAt(page: Page, locator: SemanticLocator, targets: Handle[], all: boolean): Promise<boolean> {
  try {
    if (!(await presentNow(page, locator))) return false;
    const resolved = await resolveTarget(locator, { page, elements: new Map() }, { allowMany: all });
    const found = all ? await resolved.locator.elementHandles() : [await resolved.locator.first().elementHandle({ timeout: 2_000 })];
    if (found.length !== targets.length) return false;
    for (const [i, handle] of found.entries()) {
      const target = targets[i];
      if (!handle || !target || !(await handle.evaluate((a, b) => a === b, target))) return false;
    }
    return true;
  } catch {
    return false;
  }
}
