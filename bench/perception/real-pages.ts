/**
 * Real-page mode of the perception benchmark:
 *   npx tsx bench/perception/run.ts --real-pages [../shared/corpora/article-pages] [--runs 3] [--limit N] [--only id-prefix,…] [--json out.json]
 *
 * Per saved page: Playwright's raw AI snapshot size (what Playwright MCP sends), the page state's exact size
 * (chars, estimated tokens), observe() time against the bare ariaSnapshotJSON time (alternated), and
 * retention judged from outside the pruning code (see retention.ts).
 */
import { documentReport, measureDocument, type DocumentMeasure } from './document';
import * as fs from 'node:fs';
import type { Page } from '@playwright/test';
import { installClickListenerMarks } from '../../agent/snapshot/click-listeners';
import { installClosedShadowRootMarks } from '../../agent/snapshot/closed-shadow-roots';
import { installEvaluateShim } from '../../agent/browser/evaluate-shim';
import { observe, type Observation } from '../../agent/snapshot';
import { estimateTokens } from '../../agent/snapshot/tokens';
import { CONTEXT_OPTIONS, launchChromium } from '../lib/browser';
import { median, quantile } from '../lib/stats';
import { offlineOnly, readCorpus, readPageHtml, serveCorpus, type CorpusPage } from './corpus';
import { coverageReport, metadataCoverage, metadataReference, type MetadataCoverage } from './metadata-reference';
import { INTERACTIVE_ROLES } from '../../agent/snapshot/roles';
import { findHeadline, firstSentence, locateText, normalizeForMatch, printedText, rawFacts } from './retention';

export interface RealPageOptions {
  dir: string;
  runs: number;
  limit?: number;
  jsonOut?: string;
  /** A folder to write each page's page state and raw AI snapshot into, for reading by hand. */
  dumpDir?: string;
  /** Only the pages whose id starts with one of these. */
  only?: string[];
  keywords: string[];
}

interface PageRow {
  id: string;
  originalUrl: string;
  rawChars: number;
  stateChars: number;
  stateTokens: number;
  /** raw AI snapshot chars / page state chars. */
  smaller: number;
  observeMs: number;
  snapshotMs: number;
  sentence: Retained;
  headline: Retained;
  byline: Retained;
  date: Retained;
  interactive: { total: number; listed: number; stubbed: number; missing: string[] };
  document?: DocumentMeasure;
  /** Whether the document section shows the title, author and published date the page's metadata holds. */
  coverage?: MetadataCoverage;
  error?: string;
}

/** `absent`: the raw snapshot does not have it either, so it is not counted. */
type Retained = { state: 'shown' | 'expand' | 'lost' | 'absent'; text?: string; where?: string };

export async function runRealPages(options: RealPageOptions): Promise<number> {
  const corpus = readCorpus(options.dir)
    .filter(entry => !options.only?.length || options.only.some(prefix => entry.id.startsWith(prefix)))
    .slice(0, options.limit);
  const server = await serveCorpus(options.dir);
  const browser = await launchChromium();
  const rows: PageRow[] = [];
  try {
    const context = await browser.newContext(CONTEXT_OPTIONS);
    await offlineOnly(context, server.origin);
    await installEvaluateShim(context);
    // As a sample's context has it: observe() reads which elements the page gave click listeners.
    await installClickListenerMarks(context);
    await installClosedShadowRootMarks(context);
    for (const [index, entry] of corpus.entries()) {
      const page = await context.newPage();
      try {
        rows.push(await measurePage(page, server.urlOf(entry.id), entry, options));
      } catch (error) {
        rows.push(failedRow(entry, error));
      } finally {
        await page.close();
      }
      const row = rows.at(-1) as PageRow;
      console.error(
        `${index + 1}/${corpus.length} ${entry.id.slice(0, 10)} ${row.error ?? `${row.smaller.toFixed(1)}× smaller, ${row.stateTokens} tok, sentence ${row.sentence.state}, headline ${row.headline.state}, byline ${row.byline.state}, date ${row.date.state}, interactive missing ${row.interactive.missing.length}`}`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (options.jsonOut) fs.writeFileSync(options.jsonOut, JSON.stringify(rows, null, 2));
  return report(rows);
}

async function measurePage(page: Page, url: string, entry: CorpusPage, options: RealPageOptions): Promise<PageRow> {
  await page.goto(url, { waitUntil: 'load', timeout: 20_000 }).catch(async () => page.waitForLoadState('domcontentloaded'));
  let observation: Observation | undefined;
  const observeTimes: number[] = [];
  const snapshotTimes: number[] = [];
  for (let run = 0; run <= options.runs; run++) {
    let started = performance.now();
    observation = await observe(page, { keywords: options.keywords });
    if (run > 0) observeTimes.push(performance.now() - started);
    started = performance.now();
    await page.ariaSnapshotJSON({ mode: 'ai', boxes: true });
    if (run > 0) snapshotTimes.push(performance.now() - started);
  }
  const state = observation as Observation;
  const rawYaml = await page.ariaSnapshot({ mode: 'ai' });
  if (options.dumpDir) {
    fs.mkdirSync(options.dumpDir, { recursive: true });
    fs.writeFileSync(`${options.dumpDir}/${entry.id.slice(0, 12)}.state.txt`, state.text);
    fs.writeFileSync(`${options.dumpDir}/${entry.id.slice(0, 12)}.raw.yaml`, rawYaml);
  }
  const facts = rawFacts(await page.ariaSnapshotJSON({ mode: 'ai', boxes: true }));
  const titles = await page.evaluate(() => [document.title, document.querySelector('meta[property="og:title"]')?.getAttribute('content') ?? '']);
  const marked = await page.evaluate(markedBylineAndDate);
  const shown = normalizeForMatch(printedText(state.text));
  const retained = async (text: string | undefined): Promise<Retained> => {
    if (!text) return { state: 'absent' };
    const needle = normalizeForMatch(text);
    if (!facts.normalizedText.includes(needle)) return { state: 'absent', text };
    if (shown.includes(needle)) return { state: 'shown', text };
    const opened = await oneExpandAway(page, state, needle, options.keywords);
    if (opened) return { state: 'expand', text, where: `expand ${opened}` };
    return { state: 'lost', text, where: locateText(facts, text) };
  };
  return {
    id: entry.id,
    originalUrl: entry.originalUrl,
    rawChars: rawYaml.length,
    stateChars: state.text.length,
    stateTokens: estimateTokens(state.text),
    smaller: rawYaml.length / Math.max(1, state.text.length),
    observeMs: median(observeTimes),
    snapshotMs: median(snapshotTimes),
    sentence: await retained(firstSentence(entry.articleBody)),
    headline: await retained(findHeadline(facts, titles)),
    byline: await retained(marked.byline),
    date: await retained(marked.date),
    interactive: interactiveCoverage(state),
    document: measureDocument(state),
    // A saved page that leaves for its site (a redirect the offline server cannot follow) shows Chrome's error page.
    coverage: state.url.startsWith('chrome-error:') ? undefined : metadataCoverage(state, metadataReference(readPageHtml(options.dir, entry.id))),
  };
}

/**
 * The byline and the publication date as the page marks them up by the web's shared conventions (rel/itemprop
 * author, a byline class; <time>, itemprop datePublished): the first visible one of each, short enough to be one.
 * Runs in the page. A page without such markup counts as "absent", like a page whose raw snapshot lacks the text.
 */
function markedBylineAndDate(): { byline?: string; date?: string } {
  const visibleText = (element: Element): string | undefined => {
    const box = element.getBoundingClientRect();
    const text = (element as HTMLElement).innerText?.replace(/\s+/g, ' ').trim();
    return box.width > 0 && box.height > 0 && text && text.length >= 3 && text.length <= 80 ? text : undefined;
  };
  const first = (selector: string) => {
    for (const element of Array.from(document.querySelectorAll(selector))) {
      const text = visibleText(element);
      if (text) return text;
    }
    return undefined;
  };
  return {
    byline: first('[rel~="author"], [itemprop~="author"], [class*="byline" i]'),
    date: first('time, [itemprop~="datePublished"]'),
  };
}

/** The stub holding the text, opened the way the agent's `expand` opens it: the next observation, focused on it. */
async function oneExpandAway(page: Page, state: Observation, needle: string, keywords: string[]): Promise<string | undefined> {
  for (const stub of state.stubs) {
    const entries = state.outline.entries.slice(stub.index, stub.end);
    const inside = normalizeForMatch(entries.map(entry => `${entry.node.name ?? ''} ${entry.node.text ?? ''}`).join(' '));
    if (!inside.includes(needle.slice(0, 40))) continue;
    const focus = { expanded: new Map([[stub.ref, { kind: stub.kind, siblings: stub.siblings }]]), found: new Set<string>() };
    const opened = await observe(page, { keywords, focus });
    if (normalizeForMatch(printedText(opened.text)).includes(needle)) return stub.ref;
  }
  return undefined;
}

/**
 * Every element of the observation's own snapshot a person could act on (the flattened raw snapshot, so a
 * button whose label counts down has the same ref it had): printed with its ref, or inside a printed stub.
 */
function interactiveCoverage(state: Observation): PageRow['interactive'] {
  const printed = new Set([...state.text.matchAll(/\[((?:f\d+)?[ec]\d+)\]/g)].map(match => match[1]));
  let total = 0;
  let listed = 0;
  let stubbed = 0;
  const missing: string[] = [];
  for (const { node } of state.outline.entries) {
    if (!node.ref || !(INTERACTIVE_ROLES.has(node.role) || node.clickable)) continue;
    total++;
    if (printed.has(node.ref)) listed++;
    else if (state.stubs.some(stub => printed.has(stub.ref) && stub.covers.has(node.ref as string))) stubbed++;
    else missing.push(`${node.ref} ${node.role}${node.name ? ` ${JSON.stringify(node.name.slice(0, 40))}` : ''}`);
  }
  return { total, listed, stubbed, missing };
}

function failedRow(entry: CorpusPage, error: unknown): PageRow {
  const absent: Retained = { state: 'absent' };
  return {
    id: entry.id,
    originalUrl: entry.originalUrl,
    rawChars: 0,
    stateChars: 0,
    stateTokens: 0,
    smaller: 0,
    observeMs: 0,
    snapshotMs: 0,
    sentence: absent,
    headline: absent,
    byline: absent,
    date: absent,
    interactive: { total: 0, listed: 0, stubbed: 0, missing: [] },
    error: error instanceof Error ? error.message.split('\n')[0] : String(error),
  };
}

function rate(rows: PageRow[], pick: (row: PageRow) => Retained): string {
  const counted = rows.filter(row => pick(row).state !== 'absent');
  const shown = counted.filter(row => pick(row).state === 'shown').length;
  const expand = counted.filter(row => pick(row).state === 'expand').length;
  const pct = (n: number) => `${((100 * n) / Math.max(1, counted.length)).toFixed(1)}%`;
  return `${pct(shown + expand)} (${shown + expand}/${counted.length}: ${shown} in the page state, ${expand} one expand away; ${rows.length - counted.length} pages lack it in the raw snapshot too)`;
}

function report(rows: PageRow[]): number {
  const ok = rows.filter(row => !row.error);
  const stat = (values: number[], digits = 1) =>
    `median ${median(values).toFixed(digits)}, p10 ${quantile(values, 0.1).toFixed(digits)}, p90 ${quantile(values, 0.9).toFixed(digits)}`;
  const interactiveTotal = ok.reduce((sum, row) => sum + row.interactive.total, 0);
  const interactiveCovered = ok.reduce((sum, row) => sum + row.interactive.listed + row.interactive.stubbed, 0);
  const interactiveStubbed = ok.reduce((sum, row) => sum + row.interactive.stubbed, 0);
  const timeRatio = ok.map(row => row.observeMs / Math.max(1, row.snapshotMs));
  const lines = [
    `Real pages: ${ok.length} measured, ${rows.length - ok.length} failed to load`,
    `raw AI snapshot / page state (×): ${stat(ok.map(row => row.smaller))}`,
    `raw AI snapshot chars: ${stat(
      ok.map(row => row.rawChars),
      0,
    )}`,
    `page state chars: ${stat(
      ok.map(row => row.stateChars),
      0,
    )}; est. tokens: ${stat(
      ok.map(row => row.stateTokens),
      0,
    )}, max ${Math.max(...ok.map(row => row.stateTokens))}`,
    `observe ms: ${stat(
      ok.map(row => row.observeMs),
      0,
    )}; bare ariaSnapshotJSON ms: ${stat(
      ok.map(row => row.snapshotMs),
      0,
    )}; observe / bare: ${stat(timeRatio, 2)}`,
    `first sentence retained: ${rate(ok, row => row.sentence)}`,
    `headline retained: ${rate(ok, row => row.headline)}`,
    `byline retained (rel/itemprop author, byline class): ${rate(ok, row => row.byline)}`,
    `date retained (<time>, itemprop datePublished): ${rate(ok, row => row.date)}`,
    `interactive elements listed or stubbed: ${((100 * interactiveCovered) / Math.max(1, interactiveTotal)).toFixed(2)}% (${interactiveCovered}/${interactiveTotal}; ${interactiveStubbed} inside stubs)`,
    ...documentReport(
      ok.flatMap(row => (row.document ? [row.document] : [])),
      stat,
    ),
    ...coverageReport(ok),
    `metadata not counted on ${ok.filter(row => !row.coverage).length} pages that left for an address the offline server does not serve`,
    `page state est. tokens, all pages together: ${ok.reduce((sum, row) => sum + row.stateTokens, 0)}`,
    '',
    'Worst pages:',
    ...worst(ok).map(describeWorst),
    ...rows.filter(row => row.error).map(row => `  ${row.id.slice(0, 12)} failed: ${row.error}`),
  ];
  console.log(lines.join('\n'));
  return 0;
}

function lossScore(row: PageRow): number {
  return (
    (row.sentence.state === 'lost' ? 10 : 0) +
    (row.headline.state === 'lost' ? 10 : 0) +
    (row.byline.state === 'lost' ? 5 : 0) +
    (row.date.state === 'lost' ? 5 : 0) +
    row.interactive.missing.length
  );
}

function worst(rows: PageRow[]): PageRow[] {
  return [...rows].sort((a, b) => lossScore(b) - lossScore(a) || a.smaller - b.smaller).slice(0, 10);
}

function describeWorst(row: PageRow): string {
  const lost: string[] = [];
  if (row.sentence.state === 'lost')
    lost.push(`first sentence (${row.sentence.where ?? 'not located'}): ${JSON.stringify(row.sentence.text?.slice(0, 80))}`);
  if (row.headline.state === 'lost')
    lost.push(`headline (${row.headline.where ?? 'not located'}): ${JSON.stringify(row.headline.text?.slice(0, 80))}`);
  if (row.byline.state === 'lost') lost.push(`byline (${row.byline.where ?? 'not located'}): ${JSON.stringify(row.byline.text)}`);
  if (row.date.state === 'lost') lost.push(`date (${row.date.where ?? 'not located'}): ${JSON.stringify(row.date.text)}`);
  if (row.interactive.missing.length)
    lost.push(`${row.interactive.missing.length} interactive not listed: ${row.interactive.missing.slice(0, 4).join('; ')}`);
  const summary = `${row.smaller.toFixed(1)}× smaller, ${row.stateTokens} tok`;
  return `  ${row.id.slice(0, 12)} ${new URL(row.originalUrl).hostname} — ${summary}${lost.length ? `\n    lost: ${lost.join('\n    lost: ')}` : ' — nothing lost'}`;
}
