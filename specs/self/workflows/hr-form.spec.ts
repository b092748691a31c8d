import { expect, test, type Browser } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Result } from '../../../agent/evidence/result-schema';
import { RecoveryMonitor } from '../../../agent/loop/recovery';
import { combinedCsv } from '../../../agent/report/csv';
import { SampleSession } from '../../../agent/session';
import { hrFormScript } from '../../../fixtures/model-scripts/hr-form';
import { BREAK_HEADER } from '../../../fixtures/lib/break-switch';
import { ATTACHMENTS_DROPPED_BREAK } from '../../../fixtures/sites/hr/site';
import { ensureFixtureSites, type RunningFixtureSites } from '../../../fixtures/serve';
import { PEOPLESEARCH_ENV } from '../../../fixtures/sites/peoplesearch/credentials';
import { allHires, ATTACHMENT_FILES, type Hire } from '../../../fixtures/sites/hr/hires';
import type { HireTruth } from '../../../fixtures/sites/hr/truth';
import { hrInputCsv } from '../../../fixtures/sites/hr/write-inputs';
import { bundledTask, sampleOf, startScriptedModel } from '../helpers/agent-env';
import { recipeRows, startRecipeRun, stopRecipeRun, type RecipeRun, type Row } from '../helpers/recipe-run';
import { tempDir } from '../helpers/temp';
import { readEnv } from '../../../agent/env/read';
import { SITE } from '../helpers/sites';

const TASK = 'hr_form';
const FIELDS = ['form_submitted', 'reference_number', 'attachment_count', 'report_filename', 'report_downloaded'] as const;
const INPUTS = path.resolve(__dirname, '../../../tasks/inputs');

/**
 * Special cases for the scripted model: a submit before confirming (validation error, then fixed); three
 * attachments in a city-state; a start date in another year with a state and an office of the same name;
 * one attachment; the 1st of a month (a day whose name starts the names of the 10th to the 19th).
 */
const MODEL_SUBSET = ['hire_ada_park', 'hire_chen_li', 'hire_dana_weber', 'hire_bruno_costa', 'hire_fatima_khan'];
const SUBMITS_TOO_EARLY = 'hire_ada_park';

let truth: Record<string, HireTruth>;
let sites: RunningFixtureSites;
let recipe: RecipeRun;

// One worker, in order: the recipe run goes on in the background while the in-process tests run. The timeout is a
// hang guard, as long as the other workflow files' (recipeRunInBackground): five samples side by side on a loaded
// 2-core machine took 3 minutes in CI.
test.describe.configure({ mode: 'default', timeout: 600_000 });

test.beforeAll(async () => {
  sites = await ensureFixtureSites();
  truth = (await (await fetch(`${SITE.hr}/__truth.json`)).json()).hires;
  recipe = startRecipeRun(TASK, Object.keys(truth), {
    // globalSetup signs in only the selected tasks' profiles (none here); a run's auth folder is kept apart all the same.
    AGENT_AUTH_DIR: tempDir('bwa-hr-auth-'),
    ...PEOPLESEARCH_ENV,
  });
});

test.afterAll(async () => {
  stopRecipeRun(recipe);
  await sites.close();
});

function expectMatchesTruth(row: Row): void {
  const expected = truth[row.sample_id!]!;
  expect.soft(row.status, `${row.sample_id} status (${row.error})`).toBe('done');
  for (const field of FIELDS) expect.soft(row[field], `${row.sample_id}.${field}`).toBe(String(expected[field]));
}

/** Screenshots of the three states, and the report — whose recorded hash is the truth's and the file's. */
function expectEvidence(result: Result, dir: string): void {
  const expected = truth[result.sample_id]!;
  expect(result.artifacts.filter(a => a.kind === 'screenshot').map(a => a.label)).toEqual(['empty', 'filled', 'result']);
  const reports = result.artifacts.filter(a => a.kind === 'download');
  expect(reports, result.sample_id).toHaveLength(1);
  const report = reports[0]!;
  expect(report.filename).toMatch(new RegExp(`^\\d+_${expected.report_filename.replace(/[.]/g, '\\.')}$`));
  expect(report.sha256, `${result.sample_id} report hash`).toBe(expected.report_sha256);
  const bytes = fs.readFileSync(path.join(dir, report.filename));
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(expected.report_sha256);
}

test("inputs: the CSV is written from the site's hires and every attachment exists", async () => {
  expect(fs.readFileSync(path.join(INPUTS, 'hr_form.csv'), 'utf8')).toBe(hrInputCsv());
  for (const file of ATTACHMENT_FILES) expect(fs.existsSync(path.join(INPUTS, 'hr_form', file)), file).toBe(true);
  // The server checks the submission again: an office outside the chosen state is refused.
  const response = await fetch(`${SITE.hr}/api/hires`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      first_name: 'A',
      last_name: 'B',
      email: 'a@b.test',
      job_title: 'x',
      employment_type: 'Full-time',
      start_date: '2026-04-01',
      country: 'Germany',
      state: 'Bavaria',
      office: 'Berlin',
      attachments: ['a.pdf'],
      confirmed: true,
    }),
  });
  expect(response.status).toBe(422);
  expect((await response.json()).errors).toEqual(['Berlin is not an office in Bavaria, Germany']);
});

test('filling a one-page form field by field is not spam; the same field again and again on an unchanged form is', () => {
  const monitor = new RecoveryMonitor(45);
  // Each action changes what the form shows (a value, a tab), until Submit is pressed on a form that no longer changes.
  let shown = 0;
  const act = (name: string, target: string, changes = true) =>
    monitor.after({
      url: `${SITE.hr}/hires/new`,
      page: `form after ${changes ? ++shown : shown} changes`,
      call: { name, args: { target } },
      result: { success: true, description: 'ok' },
      newData: false,
    });
  for (const field of ['First name', 'Last name', 'Email', 'Job title', 'Start date']) act('type', field);
  for (const tab of ['Employment', 'Start date', 'April 15, 2026', 'Review', 'Submit']) act('click', tab);
  expect(monitor.forceFinish).toBe(false);
  for (let i = 0; i < 4; i++) act('click', 'Submit', false);
  expect(monitor.forceFinish).toBe(true);
});

test('scripted model: fills every tab, survives a validation error, submits, reads the result tabs, downloads the report', async ({ browser }) => {
  const env = await startScriptedModel();
  try {
    const hires = new Map(allHires().map(h => [h.sample_id, h]));
    const ids = readEnv('BWA_FULL') ? [...hires.keys()] : MODEL_SUBSET;
    for (const id of ids) env.server.setScript(TASK, id, hrFormScript({ hire: hires.get(id)!, submitTooEarly: id === SUBMITS_TOO_EARLY }));
    // Side by side, as Playwright workers would run them (each sample has its own context and script), 5 at a time.
    const results: Array<{ result: Result; dir: string }> = [];
    for (let i = 0; i < ids.length; i += 5)
      results.push(...(await Promise.all(ids.slice(i, i + 5).map(id => runModelSample(browser, hires.get(id)!)))));
    expect(env.server.errors).toEqual([]);
    const rows = parse(combinedCsv(results.map(r => r.result)), { columns: true }) as Row[];
    expect(rows).toHaveLength(ids.length);
    for (const row of rows) expectMatchesTruth(row);
    for (const { result, dir } of results) {
      expectEvidence(result, dir);
      expect(result.decider).toBe('model');
      expect(result.extracted.reference_number!.provenance.source).toBe('dom');
    }
    // The model was shown the validation error before it fixed the form.
    const early = env.server.requests.filter(r => r.kind === 'decider' && r.key.sampleId === SUBMITS_TOO_EARLY);
    expect(
      early.some(r => r.lastUserText.includes('Fix 1 error before submitting') && r.lastUserText.includes('Confirm that the information is correct')),
    ).toBe(true);
  } finally {
    await env.restore();
  }
});

async function runModelSample(browser: Browser, hire: Hire, breaks?: string): Promise<{ result: Result; dir: string }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
    ...(breaks ? { extraHTTPHeaders: { [BREAK_HEADER]: breaks } } : {}),
  });
  try {
    const dir = tempDir(`bwa-${hire.sample_id}-`);
    const session = await SampleSession.prepare({
      task: bundledTask(TASK),
      sample: sampleOf({ ...hire }),
      context,
      page: await context.newPage(),
      runId: 'model',
      attempt: 0,
      deciderMode: 'model',
      dir,
    });
    return { result: await session.run(), dir };
  } finally {
    await context.close();
  }
}

test("break one thing: the result page lists only the first attachment — the model reports the count it shows, not the truth's", async ({
  browser,
}) => {
  const env = await startScriptedModel();
  try {
    const hire = allHires().find(h => truth[h.sample_id]!.attachment_count >= 2)!;
    env.server.setScript(TASK, hire.sample_id, hrFormScript({ hire }));
    const { result } = await runModelSample(browser, hire, ATTACHMENTS_DROPPED_BREAK);
    expect(env.server.errors).toEqual([]);
    expect(result.status).toBe('done');
    expect(truth[hire.sample_id]!.attachment_count).toBeGreaterThanOrEqual(2);
    expect(result.extracted.attachment_count).toMatchObject({ value: 1, provenance: { source: 'dom' } });
    // What the break does not touch is still read as the site has it.
    expect(result.extracted.reference_number!.value).toMatch(/^HR-[A-Z0-9]{8}$/);
    expect(result.extracted.report_downloaded!.value).toBe(true);
  } finally {
    await env.restore();
  }
});

test('recipe: every hire, two workers — fields, screenshots and the report hash match the truth', async () => {
  const { rows } = await recipeRows(recipe);
  const taskDir = path.join(recipe.reports, 'runs', 'recipe', TASK);
  for (const row of rows) expectMatchesTruth(row);
  for (const row of rows) {
    const dir = path.join(taskDir, row.sample_id!);
    expectEvidence(JSON.parse(fs.readFileSync(path.join(dir, 'result.json'), 'utf8')) as Result, dir);
  }
});
