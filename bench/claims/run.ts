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
 * - a list scrolling inside the page: how many of its items the page state says are hidden.
 *
 * Written against the API main and this branch share, so the same file measures both (before/after): what a
 * version lacks (the fingerprint, paging refs, the still-collapsed note) shows as "—".
 */
import type { Page } from '@playwright/test';
import { installEvaluateShim } from '../../agent/browser/evaluate-shim';
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
  return controls.map(([label, role, name, nth]) => {
    const granted = judge(new RecoveryMonitor(20), observation, role, name, nth).some(n => n.startsWith('Pagination detected'));
    return [label, granted ? 'bonus' : '—'];
  });
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

async function main(commits: number): Promise<void> {
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

    console.log('\nPagination bonus per control of the paging look-alike page\n');
    console.log(table(['control', 'click grants'], await pagingBonus(page)));

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
  },
  positionals: [],
  run: async ({ options }) => {
    await main(options.commits ?? 12);
    return 0;
  },
});

runBench(benchCommand);
