import type { Locator, Page } from '@playwright/test';
import { resolveTarget } from '../actions/targets/target';
import type { KnownElement } from '../actions/core/types';
import type { SemanticLocator } from '../task/locator-schema';
import type { FoundLink } from './items';

interface RawLink {
  url: string | null;
  text: string;
  attributes: Record<string, string>;
}

/** Every element the locator matches, as the link it is (or sits in, or holds). Nothing matching = []. */
export async function readItemLinks(page: Page, itemLink: SemanticLocator, attributes: readonly string[]): Promise<FoundLink[]> {
  const locator = await locate(page, itemLink);
  if (!locator) return [];
  return mergeSameUrl(withUrls(await locator.evaluateAll(linksOf, [...attributes])));
}

/** An item often has two links to the same place (picture and name): one item, named by the link with text. */
function mergeSameUrl(links: FoundLink[]): FoundLink[] {
  const byUrl = new Map<string, FoundLink>();
  for (const link of links) {
    const key = link.url.split('#')[0] ?? link.url;
    const seen = byUrl.get(key);
    if (!seen) byUrl.set(key, link);
    else if (!seen.text && link.text) byUrl.set(key, { ...seen, text: link.text });
  }
  return [...byUrl.values()];
}

/** How many elements the locator matches now (no waiting): the load-more and scroll loops poll it. */
export async function countItems(page: Page, itemLink: SemanticLocator): Promise<number> {
  const locator = await locate(page, itemLink, false);
  return locator ? locator.count().catch(() => 0) : 0;
}

export type ReportedLink = { link: FoundLink } | { problem: string };

/**
 * Resolves what the model named as an item — a ref, the link target as printed in the page state, or the
 * link's visible text — against the live page: only real links on the page become items. The page's links
 * are read once per resolver, so every item of one save is checked against the same moment of the page.
 */
export function linkResolver(
  page: Page,
  elements: ReadonlyMap<string, KnownElement>,
  attributes: readonly string[],
): (reported: string) => Promise<ReportedLink> {
  let links: Promise<FoundLink[]> | undefined;
  return async reported => {
    const value = reported.trim();
    if (!value) return { problem: 'empty item' };
    if (looksLikeUrl(value)) {
      let absolute: string;
      try {
        absolute = new URL(value, page.url()).href;
      } catch {
        return { problem: `"${value}" is not a URL` };
      }
      // An item often has two links (picture and name): the named one says what the item is.
      const matches = (await (links ??= pageLinks(page, attributes))).filter(link => sameUrl(link.url, absolute));
      const match = matches.find(link => link.text) ?? matches[0];
      return match ? { link: match } : { problem: `${value} is not a link on this page` };
    }
    try {
      const resolved = await resolveTarget(value, { page, elements });
      // evaluateAll finds nothing for an aria-ref locator; evaluate on the one element does.
      const [link] = withUrls(await resolved.locator.first().evaluate(linksOf, [...attributes]));
      return link ? { link } : { problem: `${value} is not a link` };
    } catch (error) {
      return { problem: (error as Error).message.split('\n')[0] ?? String(error) };
    }
  };
}

async function locate(page: Page, target: SemanticLocator, wait = true): Promise<Locator | undefined> {
  if (!wait) return candidate(page, target);
  try {
    return (await resolveTarget(target, { page, elements: new Map() }, { allowMany: true })).locator;
  } catch {
    return undefined;
  }
}

/** The same locator resolveTarget would build, without its grace period: for polling. */
function candidate(page: Page, target: SemanticLocator): Locator {
  if ('css' in target) return page.locator(target.css);
  if ('role' in target)
    return page.getByRole(
      target.role as Parameters<Page['getByRole']>[0],
      target.name === undefined ? {} : { name: target.name, exact: target.exact ?? true },
    );
  if ('text' in target) return page.getByText(target.text, { exact: target.exact ?? true });
  if ('label' in target) return page.getByLabel(target.label, { exact: true });
  if ('placeholder' in target) return page.getByPlaceholder(target.placeholder, { exact: true });
  return page.getByTestId(target.testId);
}

async function pageLinks(page: Page, attributes: readonly string[]): Promise<FoundLink[]> {
  return withUrls(await page.locator('a[href]').evaluateAll(linksOf, [...attributes]));
}

function withUrls(raw: RawLink[]): FoundLink[] {
  return raw.flatMap(link => (link.url && /^https?:/i.test(link.url) ? [{ url: link.url, text: link.text, attributes: link.attributes }] : []));
}

/** Runs in the page: each element's own link, the link around it, or the first link inside it. */
function linksOf(elements: Element[] | Element, attributes: string[]): RawLink[] {
  return (Array.isArray(elements) ? elements : [elements]).map(element => {
    const anchor = (element.closest('a[href]') ?? element.querySelector('a[href]')) as HTMLAnchorElement | null;
    const text = ((element as HTMLElement).innerText ?? element.textContent ?? '').replace(/\s+/g, ' ').trim();
    const values: Record<string, string> = {};
    for (const name of attributes) values[name] = element.getAttribute(name) ?? anchor?.getAttribute(name) ?? '';
    return { url: anchor ? anchor.href : null, text, attributes: values };
  });
}

function looksLikeUrl(value: string): boolean {
  return /^(https?:\/\/|\/|\.\.?\/|\?)/i.test(value);
}

function sameUrl(a: string, b: string): boolean {
  return a.split('#')[0] === b.split('#')[0];
}

export interface ControlState {
  /** Where the control leads, when it is a link. */
  href: string | null;
  disabled: boolean;
  hidden: boolean;
}

/** The "next" / "load more" control as it is now; undefined when the page has none. */
export async function inspectControl(page: Page, target: SemanticLocator): Promise<ControlState | undefined> {
  const locator = await locate(page, target);
  if (!locator) return undefined;
  return locator
    .first()
    .evaluate(element => {
      const anchor = element.closest('a[href]') as HTMLAnchorElement | null;
      const disabled = (element as HTMLButtonElement).disabled === true || element.closest('[aria-disabled="true"]') !== null;
      return { href: anchor ? anchor.href : null, disabled, hidden: element.getClientRects().length === 0 };
    })
    .catch(() => undefined);
}
