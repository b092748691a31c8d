/**
 * Fail-fast benchmark: `npx tsx bench/actions/run.ts [--runs 5]`
 *
 * For each control the page already says cannot be used (read-only, disabled, covered, hidden in a closed menu,
 * tab or section, an option that is not there): the time bwa's action takes to fail with its reason, against the
 * plain Playwright call on the same element with the same element timeout — what the action did before it
 * looked first. Both are measured in this run, on this machine; the ratio is what matters.
 *
 * Then what the checks cost when nothing is wrong: a click, a type and a check on plain usable controls, the
 * action (resolve, look, act, verify) against the bare Playwright call.
 */
import type { Locator, Page } from '@playwright/test';
import { dispatch } from '../../agent/actions/core/dispatch';
import { ELEMENT_TIMEOUT_MS } from '../../agent/actions/core/limits';
import type { ActionEnv, KnownElement } from '../../agent/actions/core/types';
import { installEvaluateShim } from '../../agent/browser/evaluate-shim';
import { ContextTabs } from '../../agent/browser/context-tabs';
import { EvidenceStore } from '../../agent/evidence/store';
import { settings } from '../../agent/settings';
import { observe } from '../../agent/snapshot';
import { listenSite, type RunningSite } from '../../fixtures/lib/listen';
import { widgetsSite } from '../../fixtures/sites/widgets/site';
import { CONTEXT_OPTIONS, launchChromium } from '../lib/browser';
import { median, table } from '../lib/stats';
import { tempDirFor } from '../lib/temp';
import { measureClaims, measureRefs } from './truth';

const WIDGETS = 'http://127.0.0.1:4102';
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 5;
/** Only the claims-against-the-page and ref tables (no timings). */
const TRUTH_ONLY = args.includes('--truth-only');

interface Case {
  name: string;
  path: string;
  action: { name: string; args: Record<string, unknown> };
  /** The same attempt as one Playwright call with the element timeout. */
  plain(page: Page): Promise<unknown>;
}

const byId = (page: Page, id: string): Locator => page.locator(`#${id}`);
const CASES: Case[] = [
  {
    name: 'type into a read-only field',
    path: '/blocked-controls',
    action: { name: 'type', args: { target: 'textbox "Booking reference"', text: 'BK-1' } },
    plain: p => byId(p, 'booking').fill('BK-1', { timeout: ELEMENT_TIMEOUT_MS }),
  },
  {
    name: 'type into a disabled field',
    path: '/blocked-controls',
    action: { name: 'type', args: { target: 'textbox "Discount code"', text: 'X' } },
    plain: p => byId(p, 'discount').fill('X', { timeout: ELEMENT_TIMEOUT_MS }),
  },
  {
    name: 'click a covered button',
    path: '/blocked-controls',
    action: { name: 'click', args: { target: 'button "Download report"' } },
    plain: p => byId(p, 'download').click({ timeout: ELEMENT_TIMEOUT_MS }),
  },
  {
    name: 'click a link in a closed menu',
    path: '/blocked-controls',
    action: { name: 'click', args: { target: 'Settings' } },
    plain: p => p.getByText('Settings').click({ timeout: ELEMENT_TIMEOUT_MS }),
  },
  {
    name: 'click a button on another tab',
    path: '/blocked-controls',
    action: { name: 'click', args: { target: 'Export CSV' } },
    plain: p => byId(p, 'export').click({ timeout: ELEMENT_TIMEOUT_MS }),
  },
  {
    name: 'click a link in a closed section',
    path: '/blocked-controls',
    action: { name: 'click', args: { target: 'Track parcel' } },
    plain: p => p.getByText('Track parcel').click({ timeout: ELEMENT_TIMEOUT_MS }),
  },
  {
    name: 'click a disabled button',
    path: '/blocked-controls',
    action: { name: 'click', args: { target: 'button "Place order"' } },
    plain: p => byId(p, 'place-order').click({ timeout: ELEMENT_TIMEOUT_MS }),
  },
  {
    name: 'select an option that is not there',
    path: '/native-select',
    action: { name: 'select_option', args: { target: 'Shipping method', value: 'Teleport' } },
    plain: p => byId(p, 'shipping').selectOption('Teleport', { timeout: ELEMENT_TIMEOUT_MS }),
  },
];

async function isUp(url: string): Promise<boolean> {
  return fetch(`${url}/health`).then(
    r => r.ok,
    () => false,
  );
}

async function timed(body: () => Promise<unknown>): Promise<{ ms: number; outcome: string }> {
  const started = performance.now();
  const outcome = await body().then(
    value =>
      value && typeof value === 'object' && 'success' in value
        ? (value as { success: boolean; error?: string }).success
          ? 'succeeded'
          : ((value as { error?: string }).error ?? 'failed')
        : 'succeeded',
    error => String(error instanceof Error ? error.message.split('\n')[0] : error),
  );
  return { ms: performance.now() - started, outcome };
}

/** What the loop hands an action, for one page: every URL allowed, no secrets, a throwaway evidence folder. */
function actionEnv(page: Page, elements: ReadonlyMap<string, KnownElement>): ActionEnv {
  const context = page.context();
  return {
    page,
    context,
    store: new EvidenceStore(tempDirFor('actions')),
    signal: new AbortController().signal,
    policy: {
      isAllowedUrl: () => true,
      resolvePlaceholders: text => text,
      inputDir: tempDirFor('inputs'),
      beforeNavigation: async () => {},
      maxDownloadBytes: settings.maxDownloadBytes,
    },
    tabs: new ContextTabs(context, page),
    elements,
    reader: 'model',
    step: 1,
  };
}

const ROUTINE_RUNS = 20;
const ROUTINE_PAGE =
  '<label>Name <input id="name"></label><label><input type="checkbox" id="agree"> Agree</label><button id="go" onclick="this.dataset.n = Number(this.dataset.n || 0) + 1">Go</button>';

async function measureRoutine(browser: Awaited<ReturnType<typeof launchChromium>>): Promise<Array<Array<string | number>>> {
  const context = await browser.newContext(CONTEXT_OPTIONS);
  await installEvaluateShim(context);
  const page = await context.newPage();
  // Dialogs answered as in a sample: a click then reads whether anything changed (it assumes a change otherwise).
  context.on('dialog', dialog => void dialog.dismiss());
  await page.setContent(ROUTINE_PAGE);
  const env = actionEnv(page, new Map());
  const pairs: Array<[string, () => Promise<unknown>, () => Promise<unknown>]> = [
    ['click', () => dispatch({ name: 'click', args: { target: 'css=#go' } }, env), () => page.locator('#go').click()],
    [
      'type',
      () => dispatch({ name: 'type', args: { target: 'css=#name', text: 'Ada Lovelace' } }, env),
      () => page.locator('#name').fill('Ada Lovelace'),
    ],
    [
      'check + uncheck',
      async () => {
        await dispatch({ name: 'check', args: { target: 'css=#agree' } }, env);
        await dispatch({ name: 'uncheck', args: { target: 'css=#agree' } }, env);
      },
      async () => {
        await page.locator('#agree').check();
        await page.locator('#agree').uncheck();
      },
    ],
  ];
  const rows: Array<Array<string | number>> = [];
  for (const [name, ours, bare] of pairs) {
    const oursMs: number[] = [];
    const bareMs: number[] = [];
    // Alternated, so both see the same machine load.
    for (let run = 0; run < ROUTINE_RUNS; run++) {
      oursMs.push((await timed(ours)).ms);
      bareMs.push((await timed(bare)).ms);
    }
    rows.push([name, Math.round(median(oursMs)), Math.round(median(bareMs)), Math.round(median(oursMs) - median(bareMs))]);
  }
  await context.close();
  return rows;
}

async function main(): Promise<void> {
  const server: RunningSite | undefined = (await isUp(WIDGETS)) ? undefined : await listenSite(widgetsSite, '127.0.0.1');
  const browser = await launchChromium();
  const rows: Array<Array<string | number>> = [];
  const routine: Array<Array<string | number>> = [];
  let claims: Array<Array<string | number>> = [];
  let refs: Array<Array<string | number>> = [];
  try {
    claims = await measureClaims(browser);
    refs = await measureRefs(browser);
    for (const bench of TRUTH_ONLY ? [] : CASES) {
      const ours: number[] = [];
      let reason = '';
      for (let run = 0; run < RUNS; run++) {
        const context = await browser.newContext(CONTEXT_OPTIONS);
        await installEvaluateShim(context);
        const page = await context.newPage();
        await page.goto(`${WIDGETS}${bench.path}`);
        const observation = await observe(page);
        const elements = new Map<string, KnownElement>(
          [...observation.refs].map(([ref, node]) => [ref, { ref, role: node.role, name: node.name, text: node.text }]),
        );
        const env = actionEnv(page, elements);
        const { ms, outcome } = await timed(() => dispatch(bench.action, env));
        ours.push(ms);
        reason = outcome;
        await context.close();
      }
      const context = await browser.newContext(CONTEXT_OPTIONS);
      const page = await context.newPage();
      await page.goto(`${WIDGETS}${bench.path}`);
      const plain = await timed(() => bench.plain(page));
      await context.close();
      const oursMedian = median(ours);
      rows.push([bench.name, Math.round(oursMedian), Math.round(plain.ms), `${(plain.ms / oursMedian).toFixed(1)}×`, reason.slice(0, 90)]);
      console.error(`${bench.name}: ${Math.round(oursMedian)} ms vs ${Math.round(plain.ms)} ms`);
    }
    if (!TRUTH_ONLY) routine.push(...(await measureRoutine(browser)));
  } finally {
    await browser.close();
    await server?.close();
  }
  console.log('\nClaims against the page: each action as a model would call it on one page state, and what the page shows after\n');
  console.log(table(['widget class', 'judged by', "bwa's result", 'the page shows', 'true to the page'], claims));
  console.log('\nRefs across re-renders\n');
  console.log(table(['check', 'result'], refs));
  if (TRUTH_ONLY) return;
  console.log(`\nCost when nothing is wrong: bwa action vs bare Playwright call; ${ROUTINE_RUNS} runs each, median\n`);
  console.log(table(['action', 'bwa ms (median)', 'bare Playwright ms (median)', 'difference ms'], routine));
  console.log(`\nFail fast: bwa action vs plain Playwright call (element timeout ${ELEMENT_TIMEOUT_MS} ms); ${RUNS} runs each, median\n`);
  console.log(table(['case', 'bwa ms (median)', 'plain Playwright ms', 'ratio', "bwa's message (start)"], rows));
}

void main().catch(error => {
  console.error(error);
  process.exit(1);
});
