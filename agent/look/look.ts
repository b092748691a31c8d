import type { Browser, Page, Response } from '@playwright/test';
import { DEFAULT_SETTLE_MS } from '../actions/core/dispatch';
import type { KnownElement } from '../actions/core/types';
import { settlePage } from '../actions/settle/settle';
import { describeKnown, resolveTarget } from '../actions/targets/target';
import { FULL_FACT_CHARS } from '../actions/values/document-read';
import { isUrlAllowed } from '../browser/domains';
import { pageViewer } from '../loop/view';
import { candidateLocators } from '../recipe/candidates';
import { pointsAt } from '../recipe/locate';
import { rowValues, templateDeep } from '../recipe/templatize';
import { prepareSampleContext } from '../session';
import { settings } from '../settings';
import { collectDocumentFacts, documentFactsSchema, type DocumentFact } from '../snapshot/document-facts';
import { estimateTokens } from '../snapshot/tokens';
import { BwaInputError } from '../task/input-errors';
import type { DocumentFactTarget, SemanticLocator } from '../task/locator-schema';
import type { LookSubject } from './subject';

/** One thing the page says about itself, and every place it says it, each with the target `extract` reads it by. */
export interface DocumentLine {
  /** Its line in the page state (`d3`), when the first look prints it there. */
  ref?: string;
  field: DocumentFact['field'];
  value: string;
  /** A <time>'s words beside its datetime. */
  shown?: string;
  places: DocumentFactTarget[];
}

/** An element of the page state, and the targets a recipe step could point at it with. */
export interface ElementTargets {
  ref: string;
  element: string;
  /** Best first; each was checked to point at this one element now. */
  targets: SemanticLocator[];
  problem?: string;
}

export interface Look {
  url: string;
  title: string;
  label?: string;
  notes: string[];
  /** Exactly the text a model-decided sample's first look at this page sends. */
  pageState: string;
  pageStateTokens: number;
  /** The budget it was fitted to; none with --full. */
  tokenBudget?: number;
  document: DocumentLine[];
  elements: ElementTargets[];
}

export interface LookOptions {
  /** No token budget: every line the pruning keeps. */
  full: boolean;
  /** Elements of the page state to find recipe targets for. */
  refs: readonly string[];
}

const CONTEXT = { viewport: { width: 1280, height: 900 }, colorScheme: 'light' } as const;
/** A page state as long as the page makes it (--full). */
const NO_BUDGET = Number.MAX_SAFE_INTEGER;
/** Targets printed per element: the best few, as compile keeps alternatives. */
const TARGETS_PER_ELEMENT = 3;

/** Opens the subject's page in a context prepared as a sample's, and reads it as a sample's first look would. */
export async function look(browser: Browser, subject: LookSubject, options: LookOptions): Promise<Look> {
  const context = await browser.newContext({ ...CONTEXT, ...(subject.storageState ? { storageState: subject.storageState } : {}) });
  try {
    const page = await context.newPage();
    const allowed = subject.allowedDomains;
    const tabs = await prepareSampleContext(context, page, {
      isAllowedUrl: url => !allowed || isUrlAllowed(url, allowed),
      dialogPolicy: subject.dialogPolicy,
    });
    const notes = [...subject.notes, ...(await open(page, subject.url, () => tabs.drainEvents()))];
    const tokenBudget = options.full ? undefined : settings.snapshotTokens;
    // pageViewer bounds its own look (a hung renderer gives a page state saying so).
    const view = await pageViewer({ task: { keywords: [...subject.keywords] }, tokenBudget: tokenBudget ?? NO_BUDGET })(
      tabs,
      1,
      new AbortController().signal,
    );
    notes.push(...tabs.drainEvents());
    return {
      url: view.url,
      title: view.title,
      label: subject.label,
      notes,
      pageState: view.text,
      pageStateTokens: estimateTokens(view.text),
      tokenBudget,
      document: await documentLines(tabs.active, view.elements),
      elements: await elementTargets(tabs.active, view.elements, options.refs, subject),
    };
  } finally {
    await context.close().catch(() => {});
  }
}

/** As a sample's first step: load, then settle as the actions do after a navigation. */
async function open(page: Page, url: string, guardEvents: () => string[]): Promise<string[]> {
  let response: Response | null;
  try {
    response = await page.goto(url, { waitUntil: 'domcontentloaded' });
  } catch (error) {
    const why = [error instanceof Error ? error.message.split('\n')[0] : String(error), ...guardEvents()].join('; ');
    throw new BwaInputError('BWA_LOOK_OPEN', `${url}: the page could not be opened (${why})`);
  }
  await settlePage(page, DEFAULT_SETTLE_MS);
  const status = response?.status();
  return status !== undefined && status >= 400 ? [`the page answered HTTP ${status}`] : [];
}

/** Every fact the page says about itself now (extract reads them at full length), grouped by field and value. */
async function documentLines(page: Page, elements: ReadonlyMap<string, KnownElement>): Promise<DocumentLine[]> {
  const { facts } = documentFactsSchema.parse(await page.evaluate(collectDocumentFacts, { maxChars: FULL_FACT_CHARS }));
  const printed = [...elements.values()].filter(element => element.fact);
  const lines: DocumentLine[] = [];
  for (const fact of facts) {
    const place: DocumentFactTarget = { document: fact.source, key: fact.key };
    const same = lines.find(line => line.field === fact.field && line.value === fact.value && line.shown === fact.shown);
    const ref = printed.find(element => element.fact!.source === fact.source && element.fact!.key === fact.key)?.ref;
    if (same) {
      same.places.push(place);
      same.ref ??= ref;
    } else
      lines.push({ ...(ref ? { ref } : {}), field: fact.field, value: fact.value, ...(fact.shown ? { shown: fact.shown } : {}), places: [place] });
  }
  // In the page state's order (d1, d2, …), then what it leaves out.
  const order = (line: DocumentLine) => (line.ref ? Number(line.ref.slice(1)) : Number.MAX_SAFE_INTEGER);
  return lines.sort((a, b) => order(a) - order(b));
}

/**
 * The locators compile would choose for each asked element: none naming the text the element shows now (a read's value
 * differs from page to page) or the sample's own values (those become {{column}}), each checked to find this element.
 */
async function elementTargets(
  page: Page,
  elements: ReadonlyMap<string, KnownElement>,
  refs: readonly string[],
  subject: LookSubject,
): Promise<ElementTargets[]> {
  const row = subject.row ? rowValues(subject.row.values, subject.row.inputColumns) : [];
  const out: ElementTargets[] = [];
  for (const ref of refs) {
    const known = elements.get(ref);
    if (!known || known.fact) {
      out.push({ ref, element: known ? describeKnown(known) : '', targets: [], problem: notAnElement(ref, known) });
      continue;
    }
    const element = describeKnown(known);
    try {
      const handle = await (await resolveTarget(ref, { page, elements })).locator.elementHandle({ timeout: 2_000 });
      if (!handle) throw new Error('the element is gone from the page');
      const shows = (await handle.evaluate(el => (el.textContent ?? '').replace(/\s+/g, ' ').trim())).slice(0, 200);
      const candidates = await candidateLocators(
        page,
        [handle],
        shows ? [shows] : [],
        row.map(r => r.value),
      );
      const targets: SemanticLocator[] = [];
      for (const candidate of candidates) {
        if (targets.length >= TARGETS_PER_ELEMENT) break;
        if (await pointsAt(page, candidate, [handle], false)) targets.push(templateDeep(candidate, row));
      }
      out.push({ ref, element, targets, ...(targets.length ? {} : { problem: 'no locator that does not name what it shows points at it alone' }) });
    } catch (error) {
      out.push({ ref, element, targets: [], problem: error instanceof Error ? error.message.split('\n')[0]! : String(error) });
    }
  }
  return out;
}

function notAnElement(ref: string, known: KnownElement | undefined): string {
  if (known?.fact) return `${ref} is a line of the document section: its targets are listed there`;
  return `${ref} is not in the page state`;
}
