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
export async function recordedElements(page: Page, locator: SemanticLocator, all: boolean, ledTo?: string): Promise<{ form: SemanticLocator; elements: Handle[] } | undefined> {
  for (const form of recordedForms(locator)) {
    const elements = await elementsOf(page, form, all || ledTo !== undefined).catch(() => [] as Handle[]);
    if (!elements.length) continue;
    if (all) return { form, elements };
    const led = ledTo ? await firstLeadingTo(elements, ledTo) : undefined;
    return { form, elements: [led ?? elements[0]!] };
  }
  return undefined;
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

/**
 * For values the model stated: sets of elements showing each value (the smallest element with exactly that
 * text), in page order — one set per place the first value appears, the most compact first (items of one list
 * before the same names scattered through a page).
 */
export async function elementSetsShowing(page: Page, items: readonly string[]): Promise<Handle[][]> {
  const handle = await page.evaluateHandle(wanted => {
    const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
    const text = (e: Element) => norm((e as HTMLElement).innerText || e.textContent || '');
    const visible = (e: Element) => (e as HTMLElement).offsetParent !== null || e.getClientRects().length > 0;
    const matchesOf = (item: string): Element[] => {
      const found: Element[] = [];
      const walk = (e: Element): boolean => {
        let inner = false;
        for (const child of Array.from(e.children)) inner = walk(child) || inner;
        if (!inner && text(e) === item && visible(e)) {
          found.push(e);
          return true;
        }
        return inner;
      };
      walk(document.body);
      return found.slice(0, 6);
    };
    const depth = (e: Element | null) => {
      let d = 0;
      for (let n = e; n; n = n.parentElement) d++;
      return d;
    };
    const common = (a: Element, b: Element): Element => {
      let n: Element | null = a;
      while (n && !n.contains(b)) n = n.parentElement;
      return n ?? document.body;
    };
    const all = wanted.map(matchesOf);
    if (all.some(m => m.length === 0)) return [];
    const sets: Array<{ set: Element[]; size: number }> = [];
    for (const first of all[0]!.slice(0, 4)) {
      const set = [first];
      for (const options of all.slice(1)) {
        const best = options.filter(o => !set.includes(o)).sort((a, b) => depth(common(first, b)) - depth(common(first, a)))[0];
        if (!best) break;
        set.push(best);
      }
      if (set.length !== wanted.length) continue;
      const ordered = set.every((e, i) => i === 0 || (set[i - 1]!.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0);
      if (!ordered) continue;
      const root = set.reduce((acc, e) => common(acc, e));
      sets.push({ set, size: root.querySelectorAll('*').length });
    }
    return sets.sort((a, b) => a.size - b.size).map(s => s.set);
  }, [...items]);
  const out: Handle[][] = [];
  for (const setHandle of (await handle.getProperties()).values()) {
    const elements = [...(await setHandle.getProperties()).values()].map(p => p.asElement()).filter((e): e is Handle => e !== null);
    if (elements.length === items.length) out.push(elements);
  }
  return out;
}

/** The most compact set of elements showing each value, if there is one. */
export async function elementsShowing(page: Page, items: readonly string[]): Promise<Handle[] | undefined> {
  return (await elementSetsShowing(page, items))[0];
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
  const nth = targets.length === 1 ? await page.evaluate(nthCandidatesInPage, { target: first, forbidden: [...sampleValues, ...rowValues] }) : [];
  return [...semantic.filter(s => !isContent(s)), ...css.map(selector => ({ css: selector })), ...semantic.filter(isContent), ...nth];
}

/** A name that reads like page content rather than a control's label: long, or carrying numbers or punctuation. */
export function isContent(locator: SemanticLocator): boolean {
  const shown = 'name' in locator ? locator.name : 'text' in locator ? locator.text : undefined;
  const words = shown?.replace(/\{\{[^}]+\}\}/g, 'x');
  if (!words || words === 'x') return false;
  return words.split(/\s+/).length > 4 || /[\d#/(]/.test(words);
}

/**
 * Last resort, in the page: the target as the n-th of a kind (`a.result-path` #0 — "the top search result"),
 * which holds for other samples when the model picked by position.
 */
function nthCandidatesInPage({ target, forbidden }: { target: Element; forbidden: string[] }): Array<{ css: string; nth: number }> {
  const lowered = forbidden.map(f => f.toLowerCase()).filter(f => f.length >= 3);
  const clean = (s: string) => !lowered.some(f => s.toLowerCase().includes(f)) && !/\d{3,}|^(css|sc|jsx|emotion|svelte|tw)-/.test(s);
  const tokensOf = (el: Element) => {
    const tag = el.tagName.toLowerCase();
    return Array.from(el.classList).filter(clean).map(c => `${tag}.${CSS.escape(c)}`);
  };
  const out: Array<{ css: string; nth: number }> = [];
  const selectors = [...tokensOf(target)];
  for (let ancestor = target.parentElement, depth = 0; ancestor && ancestor !== document.body && depth < 3; ancestor = ancestor.parentElement, depth++)
    for (const outer of tokensOf(ancestor)) for (const own of tokensOf(target).length ? tokensOf(target) : [target.tagName.toLowerCase()]) selectors.push(`${outer} ${own}`);
  for (const selector of selectors) {
    const all = Array.from(document.querySelectorAll(selector));
    const index = all.indexOf(target);
    if (index >= 0 && all.length > 1 && all.length <= 50 && !out.some(o => o.css === selector)) out.push({ css: selector, nth: index });
    if (out.length >= 3) break;
  }
  return out;
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
  // Holding a sample value, or being a piece of one (a profile's path inside its URL), both tie a token to this sample.
  const clean = (s: string) => !lowered.some(f => s.toLowerCase().includes(f) || (s.length >= 5 && f.includes(s.toLowerCase())));
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
  for (const token of own) for (const part of addressParts(first)) if (matchesExactly(`${token}${part}`)) add(`${token}${part}`);
  const labelled = labelAnchored(first);
  if (labelled && targets.length === 1) add(labelled);
  if (targets.length === 1) for (const marked of markedItems(first)) add(marked);
  if (targets.length === 1) for (const anchored of rowAnchored(first)) add(anchored);
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

  /**
   * `li.result:has(.company:text-is("Initech")) a.name`: the item of a list that shows this sample's input
   * values (templated later). Playwright-only pseudo-classes: checked by the caller, not here.
   */
  function rowAnchored(el: Element): string[] {
    const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
    const out: string[] = [];
    const ownTokens = tokens(el).length ? tokens(el) : [el.tagName.toLowerCase()];
    let container = el.parentElement;
    for (let depth = 0; container && container !== document.body && depth < 5 && out.length < 4; depth++, container = container.parentElement) {
      const outer = tokens(container);
      if (!outer.length) continue;
      const showing = Array.from(container.querySelectorAll('*'))
        .filter(d => d.children.length === 0 || d === el)
        .map(d => ({ d, text: norm((d as HTMLElement).innerText || d.textContent || '') }))
        .filter(({ text }) => row.includes(text));
      const anchors = [...new Map(showing.map(({ d, text }) => [text, `${(tokens(d)[0] ?? d.tagName.toLowerCase())}:text-is(${quote(text)})`])).values()];
      if (!anchors.length) continue;
      const has = anchors.map(a => `:has(${a})`).join('');
      for (const o of outer.slice(0, 2)) for (const t of ownTokens.slice(0, 2)) out.push(`${o}${has} ${t}`);
    }
    return out;
  }

  /** `[href*="/src/"]`, `[href*=".ts#"]`: the part of a link's address that says what kind of page it opens. */
  function addressParts(el: Element): string[] {
    const href = el.getAttribute('href');
    if (!href) return [];
    const path = href.split(/[?#]/)[0] ?? '';
    const parts = path.split('/').filter(s => /^[a-z][a-z-]{1,20}$/i.test(s) && clean(s) && noRow(s)).map(s => `[href*=${quote(`/${s}/`)}]`);
    const extension = /\.([a-z0-9]{1,5})$/i.exec(path)?.[1];
    if (extension) parts.push(`[href*=${quote(`.${extension}`)}]`);
    return parts;
  }

  /**
   * `li.check:has(svg.octicon-x) a.details`: the one item of a list that carries a marker (an icon, a state
   * class) the other items do not.
   */
  function markedItems(el: Element): string[] {
    const found: string[] = [];
    const ownTokens = tokens(el).length ? tokens(el) : [el.tagName.toLowerCase()];
    const fragment = document.querySelector(':target');
    if (fragment?.contains(el) && fragment !== el) for (const t of ownTokens) if (matchesExactly(`:target ${t}`)) found.push(`:target ${t}`);
    let container = el.parentElement;
    for (let depth = 0; container && container !== document.body && depth < 4 && found.length < 3; depth++, container = container.parentElement) {
      const outer = tokens(container);
      const markers = Array.from(container.querySelectorAll('*'))
        .filter(d => !d.contains(el) && !el.contains(d))
        .slice(0, 40)
        .flatMap(d => tokens(d).filter(t => !/^(div|span|p|a|li)$/.test(t)));
      // The element the address's #fragment points at is a marker every sample's page has.
      const target = document.querySelector(':target');
      if (target && container.contains(target) && !target.contains(el)) markers.unshift(':target');
      for (const o of outer)
        for (const m of [...new Set(markers)])
          for (const t of ownTokens) {
            const selector = `${o}:has(${m}) ${t}`;
            if (found.length < 3 && matchesExactly(selector)) found.push(selector);
          }
    }
    return found;
  }

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
