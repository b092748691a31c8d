/**
 * Claims benchmark: `npx tsx bench/claims/run.ts [--commits 20]`
 *
 * Whether what bwa tells the model is true, on the widget lab's pages (started in-process on :4102 when not up):
 * - progress: a date picker walked back 10 and 20 months by clicking "Previous month", each click judged by the
 *   loop guard (RecoveryMonitor) on the page it was decided on — does it call a moving task a loop, stop it, or
 *   grant pagination steps? — and a heading clicked 4 times on an unchanged page (the guard must fire);
 * - pagination: the "Pagination detected" bonus for a click on each control of the paging look-alike page;
 * - the git-web commit page type over N commits: lines, graph lines, refs printed twice, and how many different
 *   layouts the one page type gets (with and without task keywords);
 * - expand: on each commit page and on a 700-row tree, the last collapsed line expanded — is the first thing it
 *   held listed in the next page state, and is what still does not fit named there?
 * - a list scrolling inside the page: how many of its items the page state says are hidden;
 * - progress shown only in pixels or a class (issue 36): a tic-tac-toe board drawn on canvases won in 5 moves and
 *   three inbox rows flagged by a class, each move taken with bwa's own action after a look (a screenshot), each
 *   judged by the guard with the result the action gave; the pagination bonus on a page with no pager;
 * - the screenshot a decision carries on the widget lab's pages (the gate's rule), and after the model took one;
 *   with --articles-dir, how many saved article pages' first look carries one.
 *
 * Written against the API main and this branch share, so the same file measures both (before/after): what a
 * version lacks (the fingerprint, paging refs, the still-collapsed note) shows as "—".
 */
import type { Browser, Page } from '@playwright/test';
import * as fs from 'node:fs';
import { dispatch, type ActionCall } from '../../agent/actions/core/dispatch';
import type { ActionResult } from '../../agent/actions/core/types';
import { VisionGate } from '../../agent/loop/vision-gate';
import { TIC_TAC_TOE } from '../../fixtures/sites/widgets/cases/shown-not-said';
import { lookAt, openActionSample, type ActionSample, type Look } from '../lib/action-sample';
import { offlineOnly, readCorpus, serveCorpus } from '../perception/corpus';
import { installEvaluateShim } from '../../agent/browser/evaluate-shim';
import { installClickListenerMarks } from '../../agent/snapshot/click-listeners';
import { PageStateFocus } from '../../agent/loop/page-state-focus';
import { RecoveryMonitor, type StepObservation } from '../../agent/loop/recovery';
import { observe, type Observation } from '../../agent/snapshot';
import { listenSite, type RunningSite } from '../../fixtures/lib/listen';
import { commitOf } from '../../fixtures/sites/widgets/cases/git-commit';
import { widgetsSite } from '../../fixtures/sites/widgets/site';
import { CONTEXT_OPTIONS, launchChromium } from '../lib/browser';
import { median, table } from '../lib/stats';
import { defineCommand } from '../../agent/cli/command';
import { wholeNumberText } from '../../agent/env/kinds';
import { runBench } from '../lib/command';

const WIDGETS = 'http://127.0.0.1:4102';
const KEYWORDS = ['diffstat', 'author', 'files changed'];

type Versioned = Observation & { fingerprint?: string; pagination?: ReadonlySet<string> };

/** What main's loop compared (URL and the start of the page state): passed beside this branch's fields. */
const legacySignature = (o: Observation) => `${o.url.split('#')[0]}\n${o.text.split('\n').slice(3).join('\n').slice(0, 2000)}`;

/** The ref of the `nth` element of that role and name, in page order. */
function refOf(observation: Observation, role: string, name: string, nth = 0): string {
  const refs = [...observation.refs].filter(([, node]) => node.role === role && node.name === name).map(([ref]) => ref);
  if (refs[nth] === undefined) throw new Error(`no ${role} "${name}" #${nth} on ${observation.url}`);
  return refs[nth];
}

/** One click judged by the guard on the page it was decided on; returns the notices it causes. */
function judge(monitor: RecoveryMonitor, before: Versioned, role: string, name: string, nth = 0): string[] {
  const target = refOf(before, role, name, nth);
  const observation = {
    url: before.url,
    page: before.fingerprint,
    signature: legacySignature(before),
    call: { name: 'click', args: { target } },
    result: { success: true, description: `Clicked [${target}] ${role} "${name}"` },
    newData: false,
    targetLabel: `${role} "${name}"`,
    targetName: name,
    paginates: before.pagination?.has(target),
  };
  return monitor.after(observation as StepObservation);
}

interface GuardRow {
  scenario: string;
  clicks: number;
  loopNotices: number;
  stoppedAt: string;
  stagnation: number;
  bonus: number;
}

async function walkMonths(page: Page, months: number): Promise<GuardRow> {
  await page.goto(`${WIDGETS}/date-picker?month=2026-12`);
  await page.getByRole('button', { name: 'Choose date' }).click();
  const monitor = new RecoveryMonitor(100);
  const notices: string[] = [];
  let stoppedAt = 'never';
  for (let click = 1; click <= months; click++) {
    const before = await observe(page);
    await page.getByRole('button', { name: 'Previous month' }).click();
    notices.push(...judge(monitor, before, 'button', 'Previous month'));
    if (monitor.forceFinish && stoppedAt === 'never') stoppedAt = `click ${click}`;
  }
  return guardRow(`date picker, ${months} months back (the label moves)`, months, notices, stoppedAt);
}

async function clickNothing(page: Page, times: number): Promise<GuardRow> {
  await page.goto(`${WIDGETS}/date-picker?month=2026-12`);
  const monitor = new RecoveryMonitor(100);
  const notices: string[] = [];
  let stoppedAt = 'never';
  for (let click = 1; click <= times; click++) {
    const before = await observe(page);
    await page.getByRole('heading', { name: 'Date picker' }).click();
    notices.push(...judge(monitor, before, 'heading', 'Date picker'));
    if (monitor.forceFinish && stoppedAt === 'never') stoppedAt = `click ${click}`;
  }
  return guardRow(`a heading clicked ${times} times (nothing changes)`, times, notices, stoppedAt);
}

/**
 * Moves played through bwa's own actions, each after a look the model takes first (a screenshot): every action is
 * judged by the guard on the page state it was decided on, with the result the action gave.
 */
async function playWithLooks(
  sample: ActionSample,
  scenario: string,
  moves: Array<(look: Look) => ActionCall>,
): Promise<GuardRow & { shown: string }> {
  const monitor = new RecoveryMonitor(100);
  const notices: string[] = [];
  let stoppedAt = 'never';
  let action = 0;
  const act = async (decide: (look: Look) => ActionCall) => {
    const look = await lookAt(sample.page);
    const call = decide(look);
    const result: ActionResult = await dispatch(call, sample.env(look.elements));
    action++;
    notices.push(...monitor.after({ url: look.observation.url, page: (look.observation as Versioned).fingerprint, call, result, newData: false }));
    if (monitor.forceFinish && stoppedAt === 'never') stoppedAt = `action ${action} of ${moves.length * 2}`;
  };
  for (const [index, move] of moves.entries()) {
    await act(() => ({ name: 'screenshot', args: { label: `look ${index + 1}`, full_page: false } }));
    await act(move);
  }
  const shown = await sample.page
    .getByRole('status')
    .first()
    .innerText()
    .catch(() => '');
  return { ...guardRow(scenario, moves.length, notices, stoppedAt), shown };
}

const nthRef = (pattern: RegExp, nth: number) => (look: Look) => {
  const ref = [...look.observation.text.matchAll(pattern)][nth]?.[1];
  if (!ref) throw new Error(`no ${pattern} #${nth} in the page state`);
  return ref;
};

async function ticTacToe(browser: Browser): Promise<GuardRow & { shown: string }> {
  const sample = await openActionSample(browser);
  try {
    await sample.page.goto(`${WIDGETS}/tic-tac-toe`);
    const cell = (n: number) => (look: Look) => ({
      name: 'click',
      args: { target: nthRef(/\[((?:f\d+)?[ec]\d+)\] clickable icon="cell"/g, n)(look) },
    });
    return await playWithLooks(sample, 'tic-tac-toe on canvases, won in 5 moves (a look before each)', TIC_TAC_TOE.fiveMoveWin.map(cell));
  } finally {
    await sample.close();
  }
}

async function flagRows(browser: Browser): Promise<GuardRow & { shown: string }> {
  const sample = await openActionSample(browser);
  try {
    await sample.page.goto(`${WIDGETS}/flag-inbox`);
    // By CSS: which row's icon the page state lists is issue 36's point 2, not what this measures.
    const flag = (n: number) => () => ({ name: 'click', args: { target: `css=tr:nth-child(${n + 1}) .flag` } });
    const row = await playWithLooks(sample, 'inbox: 3 rows flagged by a class (a look before each)', [0, 1, 2].map(flag));
    const classes = await sample.page.locator('.flag').evaluateAll(flags => flags.map(f => f.className).join(', '));
    return { ...row, shown: classes };
  } finally {
    await sample.close();
  }
}

function guardRow(scenario: string, clicks: number, notices: string[], stoppedAt: string): GuardRow {
  return {
    scenario,
    clicks,
    loopNotices: notices.filter(n => n.includes('same action')).length,
    stoppedAt,
    stagnation: notices.filter(n => n.includes('has not changed') || n.includes('CHANGE YOUR STRATEGY')).length,
    bonus: notices.filter(n => n.startsWith('Pagination detected')).length,
  };
}

/** Clicks (not performed) on each paging look-alike and real paging control: which would grant bonus steps. */
async function pagingBonus(page: Page): Promise<Array<[string, string]>> {
  await page.goto(`${WIDGETS}/paging-lookalikes`);
  const observation = (await observe(page)) as Versioned;
  const controls: Array<[string, string, string, number]> = [
    ['tab "1"', 'tab', '1', 0],
    ['tab "Next"', 'tab', 'Next', 0],
    ['calendar day "15"', 'button', '15', 0],
    ['calendar button "Next"', 'button', 'Next', 0],
    ['form step button "Next"', 'button', 'Next', 1],
    ['table cell link "2" (?day=2)', 'link', '2', 0],
    ['pager link "2"', 'link', '2', 1],
    ['pager link "Next"', 'link', 'Next', 0],
    ['link "Older" (?offset=40)', 'link', 'Older', 0],
    ['button "Load more orders"', 'button', 'Load more orders', 0],
  ];
  // A page with no pager at all: numbered answers, a keypad, a review's "Show more".
  await page.goto(`${WIDGETS}/answer-buttons`);
  const noPager = (await observe(page)) as Versioned;
  const lookalikes: Array<[string, string, string, number]> = [
    ['answer button "6" (no pager on the page)', 'button', '6', 0],
    ['keypad button "5"', 'button', '5', 1],
    ['review button "Show more"', 'button', 'Show more', 0],
  ];
  return [...bonusRows(observation, controls), ...bonusRows(noPager, lookalikes)];
}

function bonusRows(observation: Versioned, controls: Array<[string, string, string, number]>): Array<[string, string]> {
  return controls.map(([label, role, name, nth]) => {
    const granted = judge(new RecoveryMonitor(20), observation, role, name, nth).some(n => n.startsWith('Pagination detected'));
    return [label, granted ? 'bonus' : '—'];
  });
}

/** Whether a decision on the page's first look carries a screenshot, and of what (the gate's own rule). */
async function visionPerPage(browser: Browser): Promise<Array<[string, string]>> {
  const sample = await openActionSample(browser);
  const gate = new VisionGate();
  const signal = new AbortController().signal;
  const size = (png: Buffer) => `${png.readUInt32BE(16)}×${png.readUInt32BE(20)}`;
  const rows: Array<[string, string]> = [];
  try {
    for (const slug of [
      'svg-status',
      'canvas-chart',
      'colour-tiles',
      'pie-menu',
      'tic-tac-toe',
      'flag-inbox',
      'shape-quiz',
      'date-picker',
      'answer-buttons',
    ]) {
      await sample.page.goto(`${WIDGETS}/${slug}`);
      const shot = await gate.screenshotFor(sample.page, await observe(sample.page), signal);
      rows.push([slug, shot ? `${size(shot.png)} — ${shot.reasons.join('; ')}` : '—']);
    }
    // The model takes a screenshot to look at the drawn shape: does the next decision carry it?
    await sample.page.goto(`${WIDGETS}/shape-quiz`);
    const look = await lookAt(sample.page);
    const taken = await dispatch({ name: 'screenshot', args: { label: 'shape', full_page: false } }, sample.env(look.elements));
    const artifact = taken.effects?.artifact;
    const asked = artifact ? { label: 'shape', filename: artifact.filename, path: sample.store.pathOf(artifact.filename), step: 2 } : undefined;
    const next = await (gate.screenshotFor as (...args: unknown[]) => ReturnType<VisionGate['screenshotFor']>)(
      sample.page,
      await observe(sample.page),
      signal,
      asked,
    );
    rows.push(["shape-quiz, the decision after the model's screenshot", next ? `${size(next.png)} — ${next.reasons.join('; ')}` : '—']);
  } finally {
    await sample.close();
  }
  return rows;
}

/** On saved real article pages: how many first looks carry a screenshot (their text is in the tree: the fewer the better). */
async function visionOnArticles(browser: Browser, dir: string): Promise<string> {
  const corpus = readCorpus(dir);
  const server = await serveCorpus(dir);
  const context = await browser.newContext(CONTEXT_OPTIONS);
  await offlineOnly(context, server.origin);
  await installEvaluateShim(context);
  await installClickListenerMarks(context);
  const gate = new VisionGate();
  const signal = new AbortController().signal;
  let sent = 0;
  const reasons = new Map<string, number>();
  try {
    for (const entry of corpus) {
      const page = await context.newPage();
      try {
        await page.goto(server.urlOf(entry.id), { waitUntil: 'load', timeout: 20_000 }).catch(() => page.waitForLoadState('domcontentloaded'));
        const shot = await gate.screenshotFor(page, await observe(page), signal);
        if (shot) sent++;
        for (const reason of shot?.reasons ?? []) {
          const kind = reason.replace(/\d+/g, 'N');
          reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
        }
      } catch {
        // A page that does not load is no page the gate saw.
      } finally {
        await page.close();
      }
    }
  } finally {
    await context.close();
    await server.close();
  }
  const why = [...reasons].map(([kind, count]) => `${count} × ${kind}`).join('; ');
  return `${sent} of ${corpus.length} pages (${((sent / corpus.length) * 100).toFixed(1)}%)${why ? `: ${why}` : ''}`;
}

const CONTAINERS = new Set(['table', 'grid', 'list', 'navigation', 'banner', 'region', 'form', 'complementary', 'contentinfo', 'main', 'section']);

/**
 * The page state's shape: its top-level lines' roles, and under them the containers and collapsed lines (a row or a
 * link of the data is no part of the layout); containers keep their names, repeats are merged.
 */
function layoutOf(text: string): string {
  const tokens: string[] = [];
  for (const line of text.split('\n').slice(3)) {
    const match = /^( *)\[[^\]]+\] (\S+)(?: ("(?:[^"\\]|\\.)*"))?(.*)$/.exec(line);
    if (!match) continue;
    const [, indent, role, name, rest] = match as unknown as [string, string, string, string | undefined, string];
    const collapsed = rest.includes('(collapsed:');
    if (indent.length > 1 || (indent.length === 1 && !collapsed && !CONTAINERS.has(role))) continue;
    const token = `${indent}${role}${CONTAINERS.has(role) ? ` ${name ?? ''}` : ''}${collapsed ? ' (collapsed)' : ''}`;
    if (tokens.at(-1) !== token) tokens.push(token);
  }
  return tokens.join(' / ');
}

const refsPrintedTwice = (text: string) => {
  const refs = text
    .split('\n')
    .map(line => /^\s*\[((?:f\d+)?[ec]\d+)\]/.exec(line)?.[1])
    .filter(Boolean);
  return refs.length - new Set(refs).size;
};

interface ExpandOutcome {
  /** The first example of the expanded line is listed (not collapsed) in the next page state. */
  kept: boolean;
  /** Lines naming what the expanded part still holds collapsed; undefined where the version has no such check. */
  notes?: string[];
}

/** Expands the last collapsed line: is its first example listed next time, and is what does not fit named? */
async function expandLast(page: Page, keywords: string[]): Promise<ExpandOutcome | undefined> {
  const focus = new PageStateFocus();
  const first = await observe(page, { keywords, ...focus.forNextLook(page.url()) });
  focus.remember(first);
  const line = first.text
    .split('\n')
    .filter(l => l.includes('(collapsed:'))
    .at(-1);
  const example = line && /— "((?:[^"\\]|\\.)*?)(?:…)?"/.exec(line)?.[1];
  if (!line || !example) return undefined;
  focus.expand(/\[((?:f\d+)?e\d+)\]/.exec(line)?.[1] as string);
  const next = await observe(page, { keywords, ...focus.forNextLook(page.url()) });
  focus.remember(next);
  const kept = next.text.split('\n').some(l => !l.includes('(collapsed:') && l.includes(`"${example}`));
  const notes = (focus as PageStateFocus & { stillCollapsed?: () => string[] }).stillCollapsed?.();
  return { kept, notes };
}

async function main(commits: number, articlesDir: string | undefined): Promise<void> {
  const server: RunningSite | undefined = (await isUp(WIDGETS)) ? undefined : await listenSite(widgetsSite, '127.0.0.1');
  const browser = await launchChromium();
  try {
    const context = await browser.newContext(CONTEXT_OPTIONS);
    await installEvaluateShim(context);
    const page = await context.newPage();

    const guard = [await walkMonths(page, 10), await walkMonths(page, 20), await clickNothing(page, 4)];
    console.log('\nProgress: the loop guard on clicks it saw the page of\n');
    console.log(
      table(
        ['scenario', 'clicks', 'loop notices', 'only done/fail from', 'stagnation notices', 'pagination bonus'],
        guard.map(g => [g.scenario, g.clicks, g.loopNotices, g.stoppedAt, g.stagnation, g.bonus]),
      ),
    );
    const played = [await ticTacToe(browser), await flagRows(browser)];
    console.log("\nProgress the page shows only in pixels or a class: bwa's actions, a look (screenshot) before each move\n");
    console.log(
      table(
        ['scenario', 'moves', 'loop notices', 'only done/fail from', 'stagnation notices', 'pagination bonus', 'the page at the end'],
        played.map(g => [g.scenario, g.clicks, g.loopNotices, g.stoppedAt, g.stagnation, g.bonus, g.shown]),
      ),
    );

    console.log('\nPagination bonus per control of the paging look-alike page (and a page with no pager)\n');
    console.log(table(['control', 'click grants'], await pagingBonus(page)));

    console.log("\nThe screenshot a decision carries, per widget-lab page (the gate's own rule)\n");
    console.log(table(['page', 'decision carries'], await visionPerPage(browser)));
    if (articlesDir) console.log(`\nSaved article pages whose first look carries a screenshot: ${await visionOnArticles(browser, articlesDir)}`);

    const ids = Array.from({ length: commits }, (_, i) => (0x5eed0000 + i * 104729).toString(16));
    for (const keywords of [[], KEYWORDS]) {
      const lines: number[] = [];
      const tokens: number[] = [];
      let graphLines = 0;
      let twice = 0;
      const layouts = new Map<string, number>();
      let expanded = 0;
      let kept = 0;
      let named: number | undefined;
      for (const id of ids) {
        await page.goto(`${WIDGETS}/git-commit/view?id=${id}`);
        const observation = await observe(page, { keywords });
        lines.push(observation.text.split('\n').length - 3);
        tokens.push(observation.stats.estimatedTokens);
        graphLines += observation.text.split('\n').filter(line => line.includes('"file diffstat"')).length;
        twice += refsPrintedTwice(observation.text) > 0 ? 1 : 0;
        const layout = layoutOf(observation.text);
        layouts.set(layout, (layouts.get(layout) ?? 0) + 1);
        const outcome = await expandLast(page, keywords);
        if (outcome) {
          expanded++;
          kept += outcome.kept ? 1 : 0;
          if (outcome.notes) named = (named ?? 0) + (outcome.notes.length > 0 ? 1 : 0);
        }
      }
      const files = ids.map(id => commitOf(id).files.length);
      console.log(
        `\nGit-web commit pages, ${ids.length} commits (${Math.min(...files)}–${Math.max(...files)} files), keywords: ${keywords.join(', ') || 'none'}\n`,
      );
      console.log(
        table(
          ['figure', 'value'],
          [
            ['page state lines, median', median(lines)],
            ['page state tokens (est.), median', median(tokens)],
            ['"file diffstat" graph lines, all pages', graphLines],
            ['pages with a ref printed twice', twice],
            ['distinct layouts of the one page type', layouts.size],
            ['pages sharing the most common layout', Math.max(...layouts.values())],
            ['expand of the last collapsed line: first example listed next', `${kept}/${expanded}`],
            ['… pages where it did not all fit and the next page state names the rest', named === undefined ? '—' : `${named}/${expanded}`],
          ],
        ),
      );
    }

    await page.goto(`${WIDGETS}/long-tree`);
    const tree = await expandLast(page, []);
    console.log('\nA 700-row tree: expand of its last collapsed line\n');
    console.log(
      table(
        ['figure', 'value'],
        [
          ['first example listed next', String(tree?.kept)],
          ['what is still collapsed, as the next page state names it', tree?.notes ? tree.notes.join(' ') || '(nothing)' : '—'],
        ],
      ),
    );

    await page.goto(`${WIDGETS}/scrolling-inbox`);
    const inbox = await observe(page);
    const header = inbox.text.split('\n')[2] ?? '';
    const listLine = inbox.text.split('\n').find(line => line.includes('list "Messages"')) ?? '';
    console.log('\nA list of 60 messages scrolling in a 300 px box (10 shown)\n');
    console.log(
      table(
        ['figure', 'value'],
        [
          ['header', header.slice(header.indexOf('·') + 2)],
          ['list line', listLine.trim()],
        ],
      ),
    );
  } finally {
    await browser.close();
    await server?.close();
  }
}

async function isUp(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`)).ok;
  } catch {
    return false;
  }
}

const benchCommand = defineCommand({
  program: 'npx tsx',
  name: 'bench/claims/run.ts',
  summary: "Whether the loop guard, the pagination bonus, expand and the page state tell the truth on the widget lab's pages",
  options: {
    commits: { type: 'string', placeholder: 'n', value: wholeNumberText(1), help: 'git-web commit pages to measure (default 12)' },
    'articles-dir': { type: 'string', placeholder: 'dir', help: 'saved article pages: how many first looks carry a screenshot' },
  },
  positionals: [],
  run: async ({ options }) => {
    const dir = options['articles-dir'];
    if (dir !== undefined && !fs.existsSync(dir)) throw new Error(`--articles-dir ${dir}: no such folder`);
    await main(options.commits ?? 12, dir);
    return 0;
  },
});

runBench(benchCommand);
