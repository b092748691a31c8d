/**
 * Perception benchmark: `npx tsx bench/perception/run.ts [--runs 20] [--no-widgets] [--only name-prefix,…]`
 *
 * For each page: observe() time (median, p95 over N runs after 2 warm-ups), the same for the bare
 * AI snapshot call (what we cannot go below), the prompt size in estimated tokens (see
 * agent/snapshot/tokens.ts), pruned text / raw AI snapshot text (Playwright's YAML, measured once),
 * and the task-relevant facts missing from the prompt (must be 0).
 */
import { chromium, type Page } from '@playwright/test';
import { observe, type Observation } from '../../agent/snapshot';
import { listenSite, type RunningSite } from '../../fixtures/lib/listen';
import { widgetsSite } from '../../fixtures/sites/widgets/site';
import { generatedPage, widgetPages, type BenchPage } from './pages';
import { runRealPages, type RealPageOptions } from './real-pages';
import { installClickListenerMarks } from '../../agent/snapshot/click-listeners';
import { itemControlPages } from './item-pages';

const DEFAULT_CORPUS = '../shared/corpora/article-pages';

const WIDGETS = 'http://127.0.0.1:4102';
const PEOPLE = 'http://127.0.0.1:4101';
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 20;
const WITH_WIDGETS = !args.includes('--no-widgets');
/** `--only widgets/mail,generated 500`: the pages whose name starts with one of these. */
const ONLY = args.includes('--only') ? (args[args.indexOf('--only') + 1] ?? '').split(',').filter(Boolean) : [];

interface Row {
  page: string;
  domElements: number;
  rawNodes: number;
  rawChars: number;
  promptChars: number;
  promptTokens: number;
  ratio: number;
  observeMedian: number;
  observeP95: number;
  snapshotMedian: number;
  confidence: number;
  lost: string[];
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? 0;
}

/** Alternates the two calls so both see the same machine load (this box has 2 cores and neighbours). */
async function timeInterleaved(runs: number, a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number[], number[]]> {
  const timesA: number[] = [];
  const timesB: number[] = [];
  for (let i = 0; i < runs + 2; i++) {
    for (const [fn, times] of [
      [a, timesA],
      [b, timesB],
    ] as const) {
      const started = performance.now();
      await fn();
      if (i >= 2) times.push(performance.now() - started);
    }
  }
  return [timesA, timesB];
}

async function open(page: Page, bench: BenchPage): Promise<void> {
  if (bench.html !== undefined) {
    await page.setContent(bench.html);
  } else if (bench.url) {
    await page.goto(bench.url, { waitUntil: 'load' });
    if (bench.ready) await page.locator(bench.ready).first().waitFor();
  }
}

async function measure(page: Page, bench: BenchPage): Promise<Row> {
  await open(page, bench);
  const domElements = await page.evaluate(() => document.querySelectorAll('*').length);
  let last: Observation | undefined;
  const [observeTimes, snapshotTimes] = await timeInterleaved(
    RUNS,
    async () => {
      last = await observe(page, { keywords: bench.keywords });
    },
    () => page.ariaSnapshotJSON({ mode: 'ai', boxes: true }),
  );
  const rawYaml = await page.ariaSnapshot({ mode: 'ai' });
  const observation = last as Observation;
  return {
    page: bench.name,
    domElements,
    rawNodes: observation.stats.rawNodes,
    rawChars: rawYaml.length,
    promptChars: observation.text.length,
    promptTokens: observation.stats.estimatedTokens,
    ratio: observation.text.length / rawYaml.length,
    observeMedian: percentile(observeTimes, 50),
    observeP95: percentile(observeTimes, 95),
    snapshotMedian: percentile(snapshotTimes, 50),
    confidence: observation.confidence.score,
    lost: bench.mustSee.filter(fact => (typeof fact === 'string' ? !observation.text.includes(fact) : !fact.test(observation.text))).map(String),
  };
}

async function isUp(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

function table(rows: Row[]): string {
  const header =
    '| page | DOM elements | raw nodes | raw AI snapshot chars | prompt chars | prompt tokens (est.) | pruned/raw | observe median ms | observe p95 ms | bare AI snapshot median ms | our overhead ms | confidence | relevant facts lost |';
  const rule = `|${header
    .split('|')
    .slice(1, -1)
    .map(() => '---')
    .join('|')}|`;
  const lines = rows.map(
    r =>
      `| ${r.page} | ${r.domElements} | ${r.rawNodes} | ${r.rawChars} | ${r.promptChars} | ${r.promptTokens} | ${(r.ratio * 100).toFixed(1)}% | ${r.observeMedian.toFixed(0)} | ${r.observeP95.toFixed(0)} | ${r.snapshotMedian.toFixed(0)} | ${(r.observeMedian - r.snapshotMedian).toFixed(0)} | ${r.confidence.toFixed(2)} | ${r.lost.length === 0 ? '0' : `${r.lost.length}: ${r.lost.slice(0, 2).join('; ')}${r.lost.length > 2 ? '; …' : ''}`} |`,
  );
  return [header, rule, ...lines].join('\n');
}

async function main(): Promise<void> {
  let server: RunningSite | undefined;
  const pages: BenchPage[] = [500, 2000, 5000, 10000].map(generatedPage);
  if (WITH_WIDGETS) {
    if (!(await isUp(WIDGETS))) server = await listenSite(widgetsSite, '127.0.0.1').catch(() => undefined);
    if (server || (await isUp(WIDGETS))) pages.push(...widgetPages(WIDGETS, await isUp(PEOPLE)), ...itemControlPages(WIDGETS));
    else console.error(`widgets site not reachable at ${WIDGETS}; measuring generated pages only`);
  }
  const browser = await chromium.launch({
    executablePath: process.env.AGENT_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const rows: Row[] = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // As a sample's context has it (session.ts): the page state knows which elements have click listeners.
    await installClickListenerMarks(context);
    const page = await context.newPage();
    for (const bench of pages.filter(page => !ONLY.length || ONLY.some(prefix => page.name.startsWith(prefix)))) {
      const row = await measure(page, bench);
      rows.push(row);
      console.error(`${row.page}: observe ${row.observeMedian.toFixed(0)} ms, ${row.promptTokens} tokens, lost ${row.lost.length}`);
    }
  } finally {
    await browser.close();
    await server?.close();
  }
  console.log(table(rows));
  const lost = rows.reduce((sum, row) => sum + row.lost.length, 0);
  if (lost > 0) process.exitCode = 1;
}

function realPagesOptions(): RealPageOptions | undefined {
  const at = args.indexOf('--real-pages');
  if (at < 0) return undefined;
  const next = args[at + 1];
  const value = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
  return {
    dir: next && !next.startsWith('--') ? next : DEFAULT_CORPUS,
    runs: Number(value('--runs')) || 3,
    limit: Number(value('--limit')) || undefined,
    jsonOut: value('--json'),
    dumpDir: value('--dump'),
    only: value('--only')?.split(',').filter(Boolean),
    keywords: value('--keywords')?.split(',').filter(Boolean) ?? [],
  };
}

const realPages = realPagesOptions();
if (realPages) void runRealPages(realPages).then(code => (process.exitCode = code));
else void main();
