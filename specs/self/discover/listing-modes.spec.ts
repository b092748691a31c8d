import { expect, test } from '@playwright/test';
import type { Browser } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openBrowser } from '../../../agent/browser/remote';
import { discoverTask, discoveryDir } from '../../../agent/discover/discover-samples';
import { ItemCollector } from '../../../agent/discover/items';
import { TaskSpecSchema } from '../../../agent/task/schema';
import { BwaInputError } from '../../../agent/task/input-errors';
import { loadTaskFile, type LoadedTask } from '../../../agent/task/load-task';
import { loadSamplesCsv } from '../../../agent/task/samples';
import { taskJson, tempDir } from '../helpers/temp';
import { acmeMembers, MEMBERS_PER_PAGE, orgMembersTasksDir, readCsv } from './helpers';
import { SITE } from '../helpers/sites';

test.setTimeout(90_000);

let browser: Browser;
let members: string[];
let previousReports: string | undefined;
test.beforeAll(async () => {
  previousReports = process.env.AGENT_REPORTS_DIR;
  process.env.AGENT_REPORTS_DIR = tempDir('bwa-discovery-modes-');
  browser = await openBrowser();
  members = await acmeMembers();
});
test.afterAll(async () => {
  if (previousReports === undefined) delete process.env.AGENT_REPORTS_DIR;
  else process.env.AGENT_REPORTS_DIR = previousReports;
  await browser.close();
});

function orgMembers(discover: Record<string, unknown> = {}): LoadedTask {
  return loadTaskFile(path.join(orgMembersTasksDir({}, discover), 'org_members.json'));
}

async function discover(task: LoadedTask, runId: string, options: { maxItems?: number; force?: boolean } = {}) {
  const report = await discoverTask(task, { runId, decider: 'recipe', browser: async () => browser, ...options });
  return { report, rows: readCsv(report.samples_file) };
}

test('numbered pages: every one of the 137 members across all 6 pages, in listing order, each with its page', async () => {
  const { report, rows } = await discover(orgMembers(), 'paged');
  expect(members).toHaveLength(137);
  expect(rows.map(r => r.sample_id)).toEqual(members);
  expect(report).toMatchObject({ items: 137, complete: true, mode: 'pagination', stop_reason: 'there is no next page', decider: 'recipe' });
  expect(report.pages.map(p => [p.page_number, p.new_items])).toEqual([
    [1, 25],
    [2, 25],
    [3, 25],
    [4, 25],
    [5, 25],
    [6, 12],
  ]);
  rows.forEach((row, i) => {
    const page = Math.floor(i / MEMBERS_PER_PAGE) + 1;
    expect(row).toMatchObject({
      url: `${SITE.people}/people/${row.sample_id}`,
      username: row.sample_id,
      discovered_page: String(page),
      discovered_from: `${SITE.people}/orgs/acme/members?page=${page}`,
    });
    expect(Number.isNaN(Date.parse(row.discovered_at!))).toBe(false);
  });
  // The file is the suite loader's input: it loads as the tests will load it.
  expect(loadSamplesCsv(orgMembers().spec, report.samples_file)).toHaveLength(137);
  expect(JSON.parse(fs.readFileSync(path.join(path.dirname(report.samples_file), '_discovery', 'discovery.json'), 'utf8'))).toMatchObject({
    items: 137,
    complete: true,
  });
});

test('"load more": clicks until the button is gone, one batch per click', async () => {
  const { report, rows } = await discover(
    orgMembers({ start_url: `${SITE.people}/orgs/acme/members-more`, next: { role: 'button', name: 'Load more' } }),
    'more',
  );
  expect(rows.map(r => r.sample_id)).toEqual(members);
  expect(report).toMatchObject({ complete: true, mode: 'load_more', stop_reason: 'the load-more control is gone' });
  expect(report.pages.map(p => p.new_items)).toEqual([25, 25, 25, 25, 25, 12]);
  expect(new Set(rows.map(r => r.discovered_from))).toEqual(new Set([`${SITE.people}/orgs/acme/members-more`]));
  expect(rows.at(-1)?.discovered_page).toBe('6');
});

test('infinite scroll: scrolls until nothing new loads', async () => {
  const { report, rows } = await discover(orgMembers({ start_url: `${SITE.people}/orgs/acme/members-scroll`, next: undefined }), 'scroll');
  expect(rows.map(r => r.sample_id)).toEqual(members);
  expect(report).toMatchObject({ complete: true, mode: 'infinite_scroll', stop_reason: 'no new items appeared' });
  // The list loads 25 at a time; a scroll to the end follows it down as it grows, so the batches after the first
  // arrive in fewer scrolls than there are batches (one, unless the machine is slow enough to hit the scroll's budget).
  const newItems = report.pages.map(p => p.new_items);
  expect(newItems[0]).toBe(25);
  expect(newItems.reduce((a, b) => a + b, 0)).toBe(members.length);
  expect(newItems.length).toBeLessThan(6);
});

test('max_items caps discovery mid-page; the same run id reuses the list instead of browsing again; --force browses again', async () => {
  const task = orgMembers();
  const first = await discover(task, 'capped', { maxItems: 30 });
  expect(first.rows.map(r => r.sample_id)).toEqual(members.slice(0, 30));
  expect(first.report).toMatchObject({ complete: true, stop_reason: 'max_items (30) reached' });
  const log = path.join(discoveryDir('org_members', 'capped'), 'action_log.json');
  const browsed = fs.readFileSync(log, 'utf8');

  const again = await discoverTask(task, {
    runId: 'capped',
    decider: 'recipe',
    maxItems: 50,
    browser: () => Promise.reject(new Error('must not browse')),
  });
  expect(again).toMatchObject({ reused: true, items: 30 });
  expect(fs.readFileSync(log, 'utf8')).toBe(browsed);

  const forced = await discoverTask(task, { runId: 'capped', decider: 'recipe', maxItems: 3, force: true, browser: async () => browser });
  expect(forced).toMatchObject({ reused: false, items: 3 });
});

test('a discover block that cannot fill the task inputs, or needs a model it has not got, fails before browsing with a message saying what to fix', async () => {
  const noColumn = orgMembers({ record_from: {} });
  const attempt = discoverTask(
    { ...noColumn, spec: { ...noColumn.spec, discover: { ...noColumn.spec.discover!, record: {} } } },
    { runId: 'bad', decider: 'recipe' },
  );
  await expect(attempt).rejects.toThrow(BwaInputError);
  await expect(attempt).rejects.toThrow(/input_schema\.username: discovery cannot fill "username": add it to discover\.record/);

  const noLocator = orgMembers();
  const withoutLink = { ...noLocator, spec: { ...noLocator.spec, discover: { ...noLocator.spec.discover!, item_link: undefined } } };
  const previousKey = process.env.ANTHROPIC_API_KEY;
  delete process.env.ANTHROPIC_API_KEY;
  try {
    await expect(discoverTask(withoutLink, { runId: 'bad', decider: 'auto' })).rejects.toThrow(
      /without a model needs discover\.item_link .* or set ANTHROPIC_API_KEY/,
    );
  } finally {
    if (previousKey !== undefined) process.env.ANTHROPIC_API_KEY = previousKey;
  }
});

test('discovered sample ids are unique regardless of case: links to /people/Ada and /people/ada never share a folder', () => {
  const spec = TaskSpecSchema.parse(
    taskJson({ start_url: '{{url}}', input_schema: { url: 'string' }, discover: { start_url: `${SITE.people}/people`, item: 'a profile link' } }),
  );
  const collector = new ItemCollector(spec, 10);
  const where = { pageUrl: `${SITE.people}/people`, pageNumber: 1 };
  const ids = ['Ada', 'ada', 'ADA'].map(
    name => collector.add({ url: `${SITE.people}/people/${name}`, text: name, attributes: {} }, where)?.sample_id,
  );
  expect(ids).toEqual(['Ada', 'ada-2', 'ADA-3']);
});
