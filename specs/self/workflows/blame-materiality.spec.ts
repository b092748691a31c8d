import { expect, test, type Browser } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { SampleSession } from '../../../agent/session';
import { combinedCsv } from '../../../agent/report/csv';
import type { Result } from '../../../agent/evidence/result-schema';
import { blameMaterialityScript } from '../../../fixtures/model-scripts/blame-materiality';
import type { BlameTruth } from '../../../fixtures/sites/codehost/truth';
import type { ModelServer } from '../../../fixtures/model-server';
import { BREAK_HEADER } from '../../../fixtures/lib/break-switch';
import { DIFFS_HIDDEN_BREAK } from '../../../fixtures/sites/codehost/site';
import { bundledTask, sampleOf, startScriptedModel } from '../helpers/agent-env';
import { acceptanceSamples, recipeRows, recipeRunInBackground, startRecipeRun, type Row } from '../helpers/recipe-run';
import { tempDir } from '../helpers/temp';
import { readEnv } from '../../../agent/env/read';
import { SITE } from '../helpers/sites';

const TASK = 'blame_materiality';
const FACT_FIELDS = ['file_path', 'last_modified_date', 'author', 'commit_sha'] as const;

/**
 * Each verdict the judgment can reach, from the diff the model was shown: two changes that are not material, one
 * that is, one whose diff is too large to display. calculateRefundTotal is also quoted in docs/api.md, so its
 * search has a decoy result. BWA_FULL=1 runs every kind of change (all 60 code strings).
 */
const MODEL_SUBSET = ['calculateRefundTotal', 'settleRefundBalance', 'capPartialRefund', 'approveRefundRequest'];

let truth: Record<string, BlameTruth & { change?: string }>;
const recipe = recipeRunInBackground(async () => {
  truth = (await (await fetch(`${SITE.codehost}/__truth.json`)).json()).blame;
  // Every kind of change is in its set.
  return startRecipeRun(TASK, acceptanceSamples(TASK, MODEL_SUBSET));
});

test('the model subset covers yes, no and inconclusive', () => {
  expect(new Set(MODEL_SUBSET.map(name => truth[name]!.material_change))).toEqual(new Set(['yes', 'no', 'inconclusive']));
});

/** Runs one code string through the scripted model, which is given only the code; `breaks` changes what the host shows. */
async function runModelSample(browser: Browser, server: ModelServer, name: string, breaks?: string): Promise<Result> {
  const t = truth[name]!;
  server.setScript(TASK, name, blameMaterialityScript(t.code));
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (breaks) await context.setExtraHTTPHeaders({ [BREAK_HEADER]: breaks });
  try {
    const session = await SampleSession.prepare({
      task: bundledTask(TASK),
      sample: sampleOf({ sample_id: name, code: t.code }),
      context,
      page: await context.newPage(),
      runId: 'model',
      attempt: 0,
      deciderMode: 'model',
      dir: tempDir(`bwa-blame-${name}-`),
    });
    return await session.run();
  } finally {
    await context.close();
  }
}

test('scripted model: search, the source file (not the docs) chosen from the results, blame, the commit, facts read from the DOM, the judgment derived from the diff it was shown', async ({
  browser,
}) => {
  const env = await startScriptedModel();
  const { server } = env;
  try {
    const names = readEnv('BWA_FULL') ? Object.keys(truth) : MODEL_SUBSET;
    const results: Result[] = [];
    for (const name of names) results.push(await runModelSample(browser, server, name));
    expect(server.errors).toEqual([]);
    const rows = parse(combinedCsv(results), { columns: true }) as Row[];
    for (const row of rows) {
      const t = truth[row.sample_id!]!;
      expect.soft(row.status, `${row.sample_id}: ${row.error}`).toBe('done');
      for (const field of FACT_FIELDS) expect.soft(row[field], `${row.sample_id}.${field}`).toBe(t[field]);
      expect.soft(row.material_change, `${row.sample_id}.material_change`).toBe(t.material_change);
      const judgment = JSON.parse(row.judgment!) as { answer: string; evidence_refs: string[] };
      expect.soft(judgment.answer, `${row.sample_id} judgment`).toBe(t.judgment.answer);
      const files = results.find(r => r.sample_id === row.sample_id)!.artifacts.map(a => a.filename);
      for (const ref of judgment.evidence_refs) expect.soft(files, `${row.sample_id} evidence_refs`).toContain(ref);
    }
    for (const result of results) {
      expect(result.extracted.commit_sha!.provenance).toMatchObject({
        source: 'dom',
        url: expect.stringContaining(`/commit/${truth[result.sample_id]!.commit_sha}`),
      });
      for (const field of FACT_FIELDS) expect.soft(result.extracted[field]?.provenance.source, `${result.sample_id}.${field} provenance`).toBe('dom');
      // The model's answer, from the diff it read (the judgment reasoning quotes it).
      expect(result.extracted.material_change!.provenance.source).toBe('model');
    }
    // The search for a documented function listed the docs first; the model still opened the source file.
    const decoy = server.requests.find(
      r => r.kind === 'decider' && r.key.sampleId === 'calculateRefundTotal' && r.lastUserText.includes('docs/api.md'),
    );
    expect(decoy?.lastUserText).toContain('src/refunds/calculate.ts');
  } finally {
    await env.restore();
  }
});

test('break one thing: the commit page hides its diff ("too large to display") — a rename the truth calls immaterial is judged inconclusive', async ({
  browser,
}) => {
  const env = await startScriptedModel();
  try {
    const name = 'calculateRefundTotal';
    expect(truth[name]!.material_change, 'the unbroken site shows a consistent rename').toBe('no');
    const result = await runModelSample(browser, env.server, name, DIFFS_HIDDEN_BREAK);
    expect(env.server.errors).toEqual([]);
    expect(result.extracted.commit_sha?.value).toBe(truth[name]!.commit_sha);
    expect(result.extracted.material_change?.value).toBe('inconclusive');
    expect(result.judgment?.reasoning).toContain('too large to display');
  } finally {
    await env.restore();
  }
});

test('recipe: every code string of the acceptance set (all 60 with BWA_FULL=1), two workers — file, author, date and commit match the site truth', async () => {
  const { rows } = await recipeRows(recipe());
  expect(rows.length).toBeGreaterThanOrEqual(readEnv('BWA_FULL') ? 60 : 5);
  for (const row of rows) {
    const t = truth[row.sample_id!]!;
    for (const field of FACT_FIELDS) expect.soft(row[field], `${row.sample_id}.${field}`).toBe(t[field]);
    // The materiality call needs reasoning over the diff: a recipe leaves it to review.
    expect.soft(row.material_change, `${row.sample_id}.material_change`).toBe('');
    expect.soft(row.status, row.sample_id).toBe('needs_review');
    expect.soft(row.error, row.sample_id).toMatch(/required fields missing: material_change.*a judgment is required/);
    expect.soft(row.artifacts, row.sample_id).toBe('3');
  }
});
