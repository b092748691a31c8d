import type { Locator } from '@playwright/test';

/*
 * Which element a locator means, for bwa's targets (targets/target.ts) and for the specs `bwa recipe export` writes:
 * shipped with the value rules (SHIPPED_VALUE_FILES in recipe/shipped-values.ts), so an exported spec picks the
 * element bwa picks. It imports only Playwright's types.
 */

export interface LocateOptions {
  /** Several matches are fine: every one is read (extract's `all`). */
  many?: boolean;
  /** Which of several matches, 0-based in page order: a locator's "nth", or 0 for its "first". */
  nth?: number;
  /** Something to act on (bwa's interactive roles and labels): of several visible matches, the only one inside such an element is meant. */
  controls?: string;
  /** A late-rendering page's grace period for the first match. */
  waitMs?: number;
}

export type Located =
  | { found: 'one'; locator: Locator }
  | { found: 'none' }
  | { found: 'several'; locator: Locator; count: number }
  | { found: 'past'; locator: Locator; count: number; nth: number };

const WAIT_MS = 2_000;

/**
 * The first candidate that matches (an exact name before a partial one), then one of its matches: the one "nth"
 * picks, the only one, the only visible one, or the only visible one to act on. A selector the page cannot parse
 * throws, as Playwright says it; the caller says whose it is.
 */
export async function locate(candidates: readonly Locator[], options: LocateOptions = {}): Promise<Located> {
  await waitForAny(candidates, options.waitMs ?? WAIT_MS);
  for (const locator of candidates) {
    const count = await locator.count();
    if (count === 0) continue;
    if (options.nth !== undefined)
      return options.nth < count ? { found: 'one', locator: locator.nth(options.nth) } : { found: 'past', locator, count, nth: options.nth };
    if (count === 1 || options.many) return { found: 'one', locator };
    const visible = locator.filter({ visible: true });
    if ((await visible.count()) === 1) return { found: 'one', locator: visible };
    const control = options.controls === undefined ? undefined : await soleControlAmong(visible, options.controls);
    if (control !== undefined) return { found: 'one', locator: visible.nth(control) };
    return { found: 'several', locator, count };
  }
  return { found: 'none' };
}

/** No element matches: the one failure missing "null" reads as null. */
export class NoElementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoElementError';
  }
}

/** The element, or an error saying why there is not one (NoElementError when nothing matches): what an exported spec acts on. */
export async function locateOne(candidates: readonly Locator[], options: LocateOptions = {}): Promise<Locator> {
  const located = await locate(candidates, options);
  if (located.found === 'one') return located.locator;
  if (located.found === 'none') throw new NoElementError(`no element matches ${String(candidates[0])}`);
  if (located.found === 'past')
    throw new Error(`${String(located.locator)}: "nth": ${located.nth} picks past the ${located.count} element(s) it matches (0-based)`);
  throw new Error(`${String(located.locator)} matches ${located.count} elements: pick one with "nth" or "first", or a narrower locator`);
}

/** "Load more" is a heading, a breadcrumb and a button: when only one match is something to act on, it is meant. */
async function soleControlAmong(matches: Locator, controls: string): Promise<number | undefined> {
  const isControl = await matches
    .evaluateAll((elements, selector) => elements.map(el => el.closest(selector) !== null), controls)
    .catch(() => [] as boolean[]);
  const found = isControl.flatMap((yes, index) => (yes ? [index] : []));
  return found.length === 1 ? found[0] : undefined;
}

/** One wait covers every candidate. */
async function waitForAny(candidates: readonly Locator[], timeout: number): Promise<void> {
  const [first, ...rest] = candidates;
  if (!first) return;
  await rest
    .reduce((union, locator) => union.or(locator), first)
    .first()
    .waitFor({ state: 'attached', timeout })
    .catch(() => {});
}
