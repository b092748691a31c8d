import { expect, test, type Browser } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Result } from '../../../agent/evidence/result-schema';
import { combinedCsv } from '../../../agent/report/csv';
import { SampleSession } from '../../../agent/session';
import type { LoadedTask } from '../../../agent/task/load-task';
import { peopleEnrichmentScript } from '../../../fixtures/model-scripts/people-enrichment';
import type { EnrichmentTruth } from '../../../fixtures/sites/peoplesearch/lookups';
import { BREAK_HEADER } from '../../../fixtures/lib/break-switch';
import { CURRENT_COMPANY_HIDDEN_BREAK, RESULTS_REVERSED_BREAK } from '../../../fixtures/sites/peoplesearch/site';
import { ensureFixtureSites, type RunningFixtureSites } from '../../../fixtures/serve';
import { PEOPLESEARCH_ENV } from '../../../fixtures/sites/peoplesearch/credentials';
import { RATE_LIMIT } from '../../../fixtures/sites/peoplesearch/session';
import { enrichmentInputCsv } from '../../../fixtures/sites/peoplesearch/write-inputs';
import { bundledTask, sampleOf, signInBundled, startScriptedModel } from '../helpers/agent-env';
import { missingSecrets } from '../../../agent/setup/sign-in';
import { loadAuthProfile } from '../../../agent/task/auth-profile';
import { PROJECT_ROOT } from '../helpers/nested-run';
import { acceptanceSamples, recipeRows, startRecipeRun, stopRecipeRun, type RecipeRun, type Row } from '../helpers/recipe-run';
import { tempDir } from '../helpers/temp';
import { readEnv } from '../../../agent/env/read';
import { SITE } from '../helpers/sites';

const TASK = 'people_enrichment';
const FIELDS = ['profile_url', 'school', 'current_company', 'tenure'] as const;
const CSV_FILE = path.resolve(__dirname, '../../../tasks/inputs/people_enrichment.csv');

/**
 * Special cases for the scripted model: the second of three same-name people; a same-name person who only
 * used to work at the company; a similar name at the company; no results at all; a company whose name is
 * the start of another's; a promotion (tenure counts from the first role there); a profile without school.
 */
const MODEL_SUBSET = [
  'maria_garcia_initech',
  'maria_garcia_hooli',
  'wei_chen_contoso',
  'zora_quill_hooli',
  'sam_patel_acme',
  'john_lee_acme_robotics',
  'priya_nair_initech',
  'tomas_ortega',
];

interface SessionStats {
  accepted: number;
  rejected: number;
}

let truth: Record<string, EnrichmentTruth>;
let sites: RunningFixtureSites;
let recipe: (RecipeRun & { authDir: string }) | undefined;

// One worker, in order: the burst alone first, then the model cases while the recipe run goes on in the background.
// The timeout is a hang guard, as long as the other workflow files' (recipeRunInBackground).
test.describe.configure({ mode: 'default', timeout: 600_000 });

test.beforeAll(async () => {
  sites = await ensureFixtureSites();
  truth = (await (await fetch(`${SITE.peoplesearch}/__truth.json`)).json()).lookups;
});

/**
 * The recipe run over the acceptance set, in the background from the model test on (the burst test runs first, alone: it is
 * about timing). Signed in once, before the run, the way globalSetup does it.
 */
async function startEnrichmentRun(browser: Browser): Promise<RecipeRun & { authDir: string }> {
  if (recipe) return recipe;
  const authDir = tempDir('bwa-auth-');
  await signIn(browser, authDir);
  recipe = { ...startRecipeRun(TASK, acceptanceSamples(TASK, MODEL_SUBSET, 3), { AGENT_AUTH_DIR: authDir, ...PEOPLESEARCH_ENV }), authDir };
  return recipe;
}

test.afterAll(async () => {
  stopRecipeRun(recipe);
  await sites.close();
});

/** Signs in as globalSetup does and returns the storage state file. */
async function signIn(browser: Browser, authDir: string): Promise<string> {
  const previous = process.env.AGENT_AUTH_DIR;
  process.env.AGENT_AUTH_DIR = authDir;
  try {
    return await signInBundled(browser, 'peoplesearch', { ...process.env, ...PEOPLESEARCH_ENV });
  } finally {
    if (previous === undefined) delete process.env.AGENT_AUTH_DIR;
    else process.env.AGENT_AUTH_DIR = previous;
  }
}

/** The site's request counts for the session a storage state holds. */
async function sessionStats(stateFile: string): Promise<SessionStats> {
  const state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { cookies: Array<{ name: string; value: string }> };
  const id = state.cookies.find(c => c.name === 'ps_session')?.value.split('.')[0];
  const stats = (await (await fetch(`${SITE.peoplesearch}/__stats.json`)).json()).sessions as Record<string, SessionStats>;
  return stats[id ?? ''] ?? { accepted: 0, rejected: 0 };
}

/** The task's input rows (tasks/inputs/people_enrichment.csv) by sample id. */
const inputRows = () => new Map((parse(fs.readFileSync(CSV_FILE, 'utf8'), { columns: true }) as Row[]).map(r => [r.sample_id!, r]));

/** What the scripted model is given: the sample's CSV row (name and company), never the site's truth. */
function lookupOf(id: string): { name: string; company: string } {
  const row = inputRows().get(id);
  if (!row?.name || !row.company) throw new Error(`${CSV_FILE} has no name and company for ${id}`);
  return { name: row.name, company: row.company };
}

const cell = (value: unknown) => (value === null || value === undefined ? '' : String(value));

function expectMatchesTruth(row: Row): void {
  const expected = truth[row.sample_id!]!;
  expect.soft(row.status, `${row.sample_id} status (${row.error})`).toBe(expected.status);
  for (const field of FIELDS) expect.soft(row[field], `${row.sample_id}.${field}`).toBe(cell(expected[field]));
}

/**
 * Runs samples in-process, each in its own context that starts signed in, `parallel` at a time. Each group's
 * sessions are prepared first and then all start at once: a real burst, however slow the machine is.
 */
async function runSamples(
  browser: Browser,
  task: LoadedTask,
  ids: readonly string[],
  opts: { stateFile: string; mode: 'model' | 'recipe'; runId: string; parallel: number; breaks?: string },
): Promise<Result[]> {
  const inputs = inputRows();
  const prepare = async (id: string) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState: opts.stateFile });
    if (opts.breaks) await context.setExtraHTTPHeaders({ [BREAK_HEADER]: opts.breaks });
    const session = await SampleSession.prepare({
      task,
      sample: sampleOf(inputs.get(id)!),
      context,
      page: await context.newPage(),
      runId: opts.runId,
      attempt: 0,
      deciderMode: opts.mode,
      dir: tempDir(`bwa-${id}-`),
    });
    return { context, session };
  };
  const finish = async ({ context, session }: Awaited<ReturnType<typeof prepare>>) => {
    try {
      return await session.run();
    } finally {
      await context.close();
    }
  };
  const results: Result[] = [];
  for (let i = 0; i < ids.length; i += opts.parallel)
    results.push(...(await Promise.all((await Promise.all(ids.slice(i, i + opts.parallel).map(prepare))).map(finish))));
  return results;
}

test("inputs: the CSV is written from the site's lookups; the site is a login wall", async () => {
  expect(fs.readFileSync(CSV_FILE, 'utf8')).toBe(enrichmentInputCsv());
  const response = await fetch(`${SITE.peoplesearch}/in/maria-garcia-2b71c4`, { redirect: 'manual' });
  expect(response.status).toBe(302);
  expect(response.headers.get('location')).toBe('/login?next=%2Fin%2Fmaria-garcia-2b71c4');
});

test('sign-in profile: the secrets it needs are read from its steps; missing ones are named', () => {
  const profile = loadAuthProfile(path.join(PROJECT_ROOT, 'tasks'), 'peoplesearch')!;
  expect(missingSecrets(profile, {})).toEqual(['SECRET_PEOPLESEARCH_USER', 'SECRET_PEOPLESEARCH_PASSWORD']);
  expect(missingSecrets(profile, PEOPLESEARCH_ENV)).toEqual([]);
});

test("rate limit: a burst without the spec's rate_limits gets 429s; the same burst with them gets none", async ({ browser }) => {
  const burst = ['maria_garcia_globex', 'maria_garcia_umbrella', 'john_lee_globex', 'wei_chen_northwind', 'sam_patel_acme_robotics'];
  // More first pages at once than the site serves a session per second.
  expect(burst.length).toBeGreaterThan(RATE_LIMIT.requests);
  const reports = tempDir('bwa-enrichment-burst-');
  const previousReports = process.env.AGENT_REPORTS_DIR;
  process.env.AGENT_REPORTS_DIR = reports;
  try {
    const unlimitedState = await signIn(browser, tempDir('bwa-auth-unlimited-'));
    const unlimited = await runSamples(browser, bundledTask(TASK, { rate_limits: {} }), burst, {
      stateFile: unlimitedState,
      mode: 'recipe',
      runId: 'unlimited',
      parallel: burst.length,
    });
    const withoutLimit = await sessionStats(unlimitedState);
    expect(withoutLimit.rejected, 'the site answered 429 to the unpaced burst').toBeGreaterThan(0);
    // (The loop retries a start page that answered 429, so these samples may still finish — later.)
    expect(unlimited).toHaveLength(burst.length);

    const limitedState = await signIn(browser, tempDir('bwa-auth-limited-'));
    const before = await sessionStats(limitedState);
    const limited = await runSamples(browser, bundledTask(TASK), burst, {
      stateFile: limitedState,
      mode: 'recipe',
      runId: 'limited',
      parallel: burst.length,
    });
    const after = await sessionStats(limitedState);
    for (const row of parse(combinedCsv(limited), { columns: true }) as Row[]) expectMatchesTruth(row);
    // Two pages per sample (results, profile), every one served.
    expect({ accepted: after.accepted - before.accepted, rejected: after.rejected - before.rejected }).toEqual({
      accepted: burst.length * 2,
      rejected: 0,
    });
  } finally {
    if (previousReports === undefined) delete process.env.AGENT_REPORTS_DIR;
    else process.env.AGENT_REPORTS_DIR = previousReports;
  }
});

test('scripted model: same-name people told apart by current company, no wrong person, every field matches the truth', async ({ browser }) => {
  await startEnrichmentRun(browser);
  const env = await startScriptedModel();
  try {
    const stateFile = await signIn(browser, tempDir('bwa-auth-model-'));
    const ids = readEnv('BWA_FULL') ? Object.keys(truth) : MODEL_SUBSET;
    for (const id of ids) env.server.setScript(TASK, id, peopleEnrichmentScript(lookupOf(id)));
    const results = await runSamples(browser, bundledTask(TASK), ids, { stateFile, mode: 'model', runId: 'model', parallel: 4 });
    expect(env.server.errors).toEqual([]);
    const rows = parse(combinedCsv(results), { columns: true }) as Row[];
    expect(rows).toHaveLength(ids.length);
    for (const row of rows) expectMatchesTruth(row);
    for (const result of results.filter(r => r.status === 'done')) {
      expect(result.decider).toBe('model');
      expect(result.extracted.profile_url!.provenance.source).toBe('dom');
      expect(result.artifacts.map(a => a.label)).toEqual(['profile']);
    }
    // Every sample started behind the login wall already signed in: the model's first page was the results.
    const firstTurns = env.server.requests.filter(r => r.kind === 'decider' && r.turn === 1);
    expect(firstTurns).toHaveLength(ids.length);
    for (const turn of firstTurns) expect(turn.lastUserText).toMatch(/results? for “/);
    // A person who is not there is flagged, never replaced by someone else.
    for (const id of ['maria_garcia_hooli', 'wei_chen_contoso', 'zora_quill_hooli'].filter(i => ids.includes(i)))
      expect(results.find(r => r.sample_id === id)?.error).toContain('confirmed by a second done');
  } finally {
    await env.restore();
  }
});

test('break one thing: results in reverse order still open the same person (chosen by current company, not position); results without their "Current:" line open nobody and go to review', async ({
  browser,
}) => {
  const env = await startScriptedModel();
  try {
    const stateFile = await signIn(browser, tempDir('bwa-auth-break-'));
    const id = 'maria_garcia_initech'; // the second of three Maria Garcias
    const run = async (breaks: string) => {
      env.server.reset();
      env.server.setScript(TASK, id, peopleEnrichmentScript(lookupOf(id)));
      const [result] = await runSamples(browser, bundledTask(TASK), [id], {
        stateFile,
        mode: 'model',
        runId: `break-${breaks}`,
        parallel: 1,
        breaks,
      });
      expect(env.server.errors).toEqual([]);
      return result!;
    };
    const reversed = await run(RESULTS_REVERSED_BREAK);
    expect(reversed.status).toBe('done');
    expect(reversed.extracted.profile_url).toMatchObject({ value: truth[id]!.profile_url, provenance: { source: 'dom' } });
    const hidden = await run(CURRENT_COMPANY_HIDDEN_BREAK);
    expect(hidden.status).toBe('needs_review');
    expect(hidden.error).toContain('confirmed by a second done');
    for (const field of FIELDS) expect(hidden.extracted[field]?.value ?? null, field).toBeNull();
    expect(hidden.artifacts).toEqual([]);
  } finally {
    await env.restore();
  }
});

test('recipe: every lookup of the acceptance set (all 30 with BWA_FULL=1), two workers sharing one session — fields match the truth and the site never answered 429', async ({
  browser,
}) => {
  const started = await startEnrichmentRun(browser);
  const { rows } = await recipeRows(started);
  for (const row of rows) expectMatchesTruth(row);
  expect(rows.filter(r => r.status === 'needs_review').length).toBeGreaterThanOrEqual(3);
  for (const row of rows.filter(r => r.status === 'done')) expect(row.artifacts, row.sample_id).toBe('1');
  // Both workers paced themselves through one slot book: the shared session stayed under the site's limit.
  const stats = await sessionStats(path.join(started.authDir, 'peoplesearch.json'));
  expect(stats.rejected).toBe(0);
  expect(stats.accepted).toBeGreaterThanOrEqual(rows.length + rows.filter(r => r.status === 'done').length);
});
