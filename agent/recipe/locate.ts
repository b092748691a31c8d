import type { ElementHandle, Page } from '@playwright/test';
import { semanticFromDom } from '../actions/semantic-from-dom';
import { resolveTarget } from '../actions/target';
import type { SemanticLocator } from '../task/locator-schema';
import { mentionsAny } from './templates';

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
  if ('role' in locator && locator.name) return [locator, { text: locator.name, exact: true }, { text: locator.name }];
  return [locator];
}

/** The element(s) a recorded locator (or its text form) points at now; an ambiguous one: its first match, as the ref was. */
export async function recordedElements(page: Page, locator: SemanticLocator, all: boolean): Promise<{ form: SemanticLocator; elements: Handle[] } | undefined> {
  for (const form of recordedForms(locator)) {
    const elements = await elementsOf(page, form, all).catch(() => [] as Handle[]);
    if (elements.length) return { form, elements };
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
    if ('role' in locator) return page.getByRole(locator.role as Parameters<Page['getByRole']>[0], locator.name === undefined ? {} : { name: locator.name, exact: locator.exact });
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
  const found = await el.evaluateHandle((root, wanted) => {
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
  }, [...forms]);
  return found.asElement() ?? el;
}

/** For values the model stated: the smallest elements whose text is each value, in page order. */
export async function elementsShowing(page: Page, items: readonly string[]): Promise<Handle[] | undefined> {
  const handle = await page.evaluateHandle(wanted => {
    const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
    const text = (e: Element) => norm((e as HTMLElement).innerText || e.textContent || '');
    const found: Element[] = [];
    for (const item of wanted) {
      let match: Element | null = null;
      const walk = (e: Element) => {
        for (const child of Array.from(e.children)) {
          if (match) return;
          walk(child);
        }
        if (!match && !found.includes(e) && text(e) === item && (e as HTMLElement).offsetParent !== null) match = e;
      };
      walk(document.body);
      if (!match) return null;
      found.push(match);
    }
    const ordered = [...found].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    return ordered.every((e, i) => e === found[i]) ? found : null;
  }, [...items]);
  const props = await handle.getProperties().catch(() => undefined);
  if (!props || props.size === 0) return undefined;
  const elements = [...props.values()].map(p => p.asElement()).filter((e): e is Handle => e !== null);
  return elements.length === items.length ? elements : undefined;
}

/**
 * Locators for the element(s) that name none of the sample's own values, best first. Row values may appear
 * in attribute values (`[data-login="ada"]`): the caller turns them into {{column}} templates.
 */
export async function candidateLocators(page: Page, targets: Handle[], sampleValues: readonly string[], rowValues: readonly string[] = []): Promise<SemanticLocator[]> {
  const first = targets[0];
  if (!first) return [];
  const semantic = targets.length === 1 ? await semanticCandidates(page, first, sampleValues) : [];
  const css = await page.evaluate(cssCandidatesInPage, { targets, forbidden: [...sampleValues], row: [...rowValues] });
  return [...semantic, ...css.map(selector => ({ css: selector }))];
}

async function semanticCandidates(page: Page, el: Handle, sampleValues: readonly string[]): Promise<SemanticLocator[]> {
  const facts = await el.evaluate(e => {
    const control = e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement ? e : null;
    return {
      testId: e.getAttribute('data-testid'),
      label: control?.labels?.[0]?.innerText?.replace(/\s+/g, ' ').trim() || null,
      placeholder: e.getAttribute('placeholder'),
    };
  });
  const out: SemanticLocator[] = [];
  const constant = (text: string | null): text is string => Boolean(text) && !mentionsAny(text!, sampleValues);
  if (constant(facts.testId)) out.push({ testId: facts.testId });
  if (constant(facts.label)) out.push({ label: facts.label });
  const aria = await identityOf(page, el);
  if (aria && 'role' in aria && aria.name && constant(aria.name) && aria.role !== 'generic') out.push({ role: aria.role, name: aria.name, exact: true });
  if (constant(facts.placeholder)) out.push({ placeholder: facts.placeholder });
  return out;
}

/** Playwright's role and name for an element handle (marked for a moment so a locator can find it). */
async function identityOf(page: Page, el: Handle): Promise<SemanticLocator | undefined> {
  const mark = `bwa-${Math.random().toString(36).slice(2, 10)}`;
  await el.evaluate((e, m) => e.setAttribute('data-bwa-bind', m), mark);
  try {
    return await semanticFromDom(page.locator(`[data-bwa-bind="${mark}"]`), { css: '*' });
  } catch {
    return undefined;
  } finally {
    await el.evaluate(e => e.removeAttribute('data-bwa-bind')).catch(() => {});
  }
}

/**
 * Runs in the page: CSS selectors that match exactly the target elements, built from attributes and class
 * names that are not generated and carry no sample value, alone or under an ancestor; and "label: value"
 * layouts anchored on the label's text (Playwright's :text-is()).
 */
function cssCandidatesInPage({ targets, forbidden, row }: { targets: Element[]; forbidden: string[]; row: string[] }): string[] {
  const lowered = forbidden.map(f => f.toLowerCase()).filter(f => f.length >= 3);
  const rowLowered = row.map(f => f.toLowerCase()).filter(f => f.length >= 3);
  const clean = (s: string) => !lowered.some(f => s.toLowerCase().includes(f));
  const noRow = (s: string) => clean(s) && !rowLowered.some(f => s.toLowerCase().includes(f));
  const generated = (c: string) => /\d{3,}|^(css|sc|jsx|emotion|svelte|tw)-|^_|__[a-z0-9]{4,}$|[A-Za-z0-9]{6,}_[A-Za-z0-9]{4,}/.test(c);
  const quote = (v: string) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const ATTRIBUTES = ['data-testid', 'data-test', 'data-qa', 'itemprop', 'name', 'aria-label', 'data-field', 'data-name', 'data-id', 'data-login', 'href'];
  const tokens = (el: Element): string[] => {
    const tag = el.tagName.toLowerCase();
    const out: string[] = [];
    if (el.id && !/\d{2,}|^[0-9]|[:.]/.test(el.id) && noRow(el.id)) out.push(`#${CSS.escape(el.id)}`);
    for (const attribute of ATTRIBUTES) {
      const value = el.getAttribute(attribute);
      if (value && value.length <= 60 && clean(value)) out.push(`[${attribute}=${quote(value)}]`);
    }
    const classes = Array.from(el.classList).filter(c => !generated(c) && noRow(c));
    for (const c of classes) out.push(`${tag}.${CSS.escape(c)}`);
    if (classes.length >= 2) out.push(`${tag}.${classes.slice(0, 2).map(c => CSS.escape(c)).join('.')}`);
    return out;
  };
  const matchesExactly = (selector: string): boolean => {
    let found: Element[];
    try {
      found = Array.from(document.querySelectorAll(selector));
    } catch {
      return false;
    }
    return found.length === targets.length && found.every((e, i) => e === targets[i]);
  };
  const first = targets[0]!;
  const own = [...tokens(first), first.tagName.toLowerCase()];
  const results: string[] = [];
  const add = (selector: string) => {
    if (!results.includes(selector) && results.length < 8) results.push(selector);
  };
  for (const token of own) if (matchesExactly(token)) add(token);
  const labelled = labelAnchored(first);
  if (labelled && targets.length === 1) add(labelled);
  let ancestor = first.parentElement;
  for (let depth = 0; ancestor && ancestor !== document.body && depth < 5 && results.length < 8; depth++, ancestor = ancestor.parentElement) {
    for (const outer of tokens(ancestor)) {
      for (const token of own) {
        if (matchesExactly(`${outer} ${token}`)) add(`${outer} ${token}`);
        if (matchesExactly(`${outer} > ${token}`)) add(`${outer} > ${token}`);
      }
    }
  }
  return results;

  /** `dt:text-is("Status") + dd`: the value sits right after a short constant label. */
  function labelAnchored(el: Element): string | undefined {
    for (let node: Element | null = el, depth = 0; node && depth < 3; node = node.parentElement, depth++) {
      const previous = node.previousElementSibling;
      const label = previous ? ((previous as HTMLElement).innerText || '').replace(/\s+/g, ' ').trim() : '';
      if (!previous || !label || label.length > 40 || !noRow(label) || /\d/.test(label)) continue;
      const path: string[] = [];
      for (let inner: Element | null = el; inner && inner !== node; inner = inner.parentElement) path.unshift(inner.tagName.toLowerCase());
      return `${previous.tagName.toLowerCase()}:text-is(${quote(label)}) + ${[node.tagName.toLowerCase(), ...path].join(' > ')}`;
    }
    return undefined;
  }
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
