import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Result } from '../../../agent/evidence/result-schema';
import { loadTaskFile, type LoadedTask } from '../../../agent/task/load-task';
import { sampleOf } from '../helpers/agent-env';
import { useEnv } from '../helpers/env';
import { taskJson, tempDir } from '../helpers/temp';
import { runSampleAlone } from './helpers';
import { SITE, SITE_HOST } from '../helpers/sites';

/**
 * A recipe on a page nobody wrote for it (fixtures/sites/widgets oversized-article): two <h1>s, a page far larger than
 * the window. A step that only reads costs itself; a step the rest depends on stops the recipe; every message is
 * written for the person who wrote the recipe.
 */
const PAGE = `${SITE.widgets}/oversized-article`;
useEnv(() => ({ AGENT_REPORTS_DIR: tempDir('bwa-replay-steps-'), AGENT_RUN_ID: 'replay-steps', ANTHROPIC_API_KEY: undefined }));
let truth: { headline: string; byline: string };

test.beforeAll(async () => {
  truth = (await (await fetch(`${SITE.widgets}/__truth.json`)).json()).cases['oversized-article'];
});

function articleTask(taskId: string, recipe: unknown[]): LoadedTask {
  const spec = taskJson({
    task_id: taskId,
    start_url: PAGE,
    output_schema: { headline: 'string | null', byline: 'string | null' },
    input_schema: {},
    allowed_domains: [SITE_HOST.widgets],
    recipe,
  });
  const file = path.join(tempDir('bwa-replay-task-'), `${taskId}.json`);
  fs.writeFileSync(file, JSON.stringify(spec));
  return loadTaskFile(file);
}

const run = (browser: Parameters<typeof runSampleAlone>[0], task: LoadedTask) =>
  runSampleAlone(browser, task, sampleOf({ sample_id: 'story' }), 'recipe');
const value = (result: Result, field: string) => result.extracted[field]?.value;

test('a read that fails costs that field, not the sample: the recipe goes on, and the result says which step failed and why', async ({ browser }) => {
  const result = await run(
    browser,
    articleTask('reads_go_on', [
      { action: 'screenshot', label: 'page' },
      { action: 'extract', field: 'headline', target: { css: 'h1' } },
      { action: 'extract', field: 'byline', target: { css: '.byline' } },
    ]),
  );
  expect(result.status).toBe('needs_review');
  expect(value(result, 'byline')).toBe(truth.byline);
  expect(result.extracted.headline).toBeUndefined();
  expect(result.artifacts.map(a => a.label)).toEqual(['page']);
  expect(result.artifacts[0]?.note).toContain('the top 8,000 px');
  const [failed] = result.failed_steps ?? [];
  expect(result.failed_steps).toHaveLength(1);
  expect(failed).toMatchObject({ step: 2, action: 'extract', field: 'headline', described: 'extract headline ← css=h1', stopped_recipe: false });
  // How many, the first few (tag, a telling attribute, text) and how to pick one — in a recipe's own terms.
  expect(failed!.reason).toMatch(
    /^css=h1 matches 2 elements: \[nth 0\] <h1> "Daily Lab", \[nth 1\] <h1 class="entry-title"> "Harbour board publishes the dredging survey" — a recipe step acts on one: pick it with "nth": <n> \(0-based, page order\) or "first": true in its target, or a narrower locator, e.g. \{"css": "h1\.entry-title"\}$/,
  );
  expect(failed!.reason).not.toMatch(/\bref\b|page state/);
  expect(result.error).toBe(`recipe step 2 (extract headline ← css=h1) failed: ${failed!.reason}`);
});

test('the ways a failed step names to pick one element each read the headline', async ({ browser }) => {
  const first = await run(
    browser,
    articleTask('pick_one', [
      { action: 'extract', field: 'headline', target: { css: 'h1', nth: 1 } },
      { action: 'extract', field: 'byline', target: { css: 'h1', first: true } },
    ]),
  );
  expect(first.status).toBe('done');
  expect(first.failed_steps).toBeUndefined();
  expect(value(first, 'headline')).toBe(truth.headline);
  expect(value(first, 'byline')).toBe('Daily Lab');
  const narrower = await run(browser, articleTask('narrower', [{ action: 'extract', field: 'headline', target: { css: 'h1.entry-title' } }]));
  expect(value(narrower, 'headline')).toBe(truth.headline);
});

test('a step the rest depends on stops the recipe, and its message is written for the recipe author', async ({ browser }) => {
  const result = await run(
    browser,
    articleTask('click_stops', [
      { action: 'click', target: { role: 'link', name: 'Comments' } },
      { action: 'extract', field: 'byline', target: { css: '.byline' } },
    ]),
  );
  expect(result.status).toBe('needs_review');
  expect(result.extracted.byline).toBeUndefined();
  expect(result.failed_steps).toEqual([
    {
      step: 1,
      action: 'click',
      described: 'click ← link "Comments"',
      reason: 'No element matches link "Comments" — none on this page after 2 s; check the locator against the page',
      stopped_recipe: true,
    },
  ]);
  expect(result.error).toBe(`recipe step 1 (click ← link "Comments") failed: ${result.failed_steps![0]!.reason}`);
});

test('a wait that times out stops the recipe: the reads after it depend on what it waited for', async ({ browser }) => {
  const result = await run(
    browser,
    articleTask('wait_stops', [
      { action: 'wait', text: 'Results loaded', seconds: 1 },
      { action: 'extract', field: 'byline', target: { css: '.byline' } },
    ]),
  );
  expect(result.extracted.byline).toBeUndefined();
  expect(result.failed_steps).toEqual([expect.objectContaining({ step: 1, action: 'wait', stopped_recipe: true })]);
});

test('an "nth" past the matches fails at once, saying how many match (not a 5 s timeout in Playwright words)', async ({ browser }) => {
  const result = await run(browser, articleTask('nth_past', [{ action: 'extract', field: 'headline', target: { css: 'h1', nth: 5 } }]));
  expect(result.failed_steps).toEqual([
    {
      step: 1,
      action: 'extract',
      field: 'headline',
      described: 'extract headline ← css=h1 #5',
      reason: 'css=h1 #5: "nth": 5 picks past the 2 elements it matches (0-based)',
      stopped_recipe: false,
    },
  ]);
});

test('a compiled recipe\'s missing "null" never hides a locator that starts matching two elements: the step fails and says so', async ({
  browser,
}) => {
  const result = await run(
    browser,
    articleTask('ambiguous_null', [
      { action: 'extract', field: 'headline', target: { css: 'h1' }, missing: 'null' },
      { action: 'extract', field: 'byline', target: { css: '.no-such-byline' }, missing: 'null' },
    ]),
  );
  expect(result.extracted.headline).toBeUndefined();
  expect(result.extracted.byline?.value).toBeNull();
  expect(result.failed_steps?.map(step => [step.step, step.field, step.reason.split(':')[0]])).toEqual([
    [1, 'headline', 'css=h1 matches 2 elements'],
  ]);
});
