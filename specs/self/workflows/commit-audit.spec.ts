import { expect, test, type Browser } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import { SampleSession } from '../../../agent/session';
import { combinedCsv } from '../../../agent/report/csv';
import type { Result } from '../../../agent/evidence/result-schema';
import { checksVisionAnswer, commitAuditScript } from '../../../fixtures/model-scripts/commit-audit';
import { COMMIT_AUDIT_FACTS as FACT_FIELDS, type CommitAuditTruth } from '../../../fixtures/sites/codehost/truth';
import type { ModelServer, RecordedRequest } from '../../../fixtures/model-server';
import { BREAK_HEADER } from '../../../fixtures/lib/break-switch';
import { CI_ANNOTATION_BREAK, INFRASTRUCTURE_FAILURE } from '../../../fixtures/sites/ci/site';
import { bundledTask, sampleOf, startScriptedModel } from '../helpers/agent-env';
import { acceptanceSamples, recipeRows, recipeRunInBackground, startRecipeRun, type Row } from '../helpers/recipe-run';
import { tempDir } from '../helpers/temp';
import { readEnv } from '../../../agent/env/read';
import { SITE } from '../helpers/sites';

const TASK = 'commit_audit';

/**
 * Positions (1 = oldest audited commit) covering every special case: two approvers and all checks green (1);
 * a material unit-test failure plus a reviewer who only commented (2); changes requested then approved, merged
 * by someone else (3); a direct push without pull request (4); an immaterial docs-link failure (6); a failure
 * whose CI log has expired (15).
 */
const MODEL_POSITIONS = [1, 2, 3, 4, 6, 15];

let truth: CommitAuditTruth[];
const recipe = recipeRunInBackground(async () => {
  truth = Object.values((await (await fetch(`${SITE.codehost}/__truth.json`)).json()).commits);
  // Every direct push and expired CI log is in the set; green runs and failures with their logs come in through
  // the stride.
  const special = truth.filter(t => t.pr_number === null || (t.checks_failed && !t.ci_failure_details)).map(t => t.commit_sha.slice(0, 7));
  return startRecipeRun(TASK, acceptanceSamples(TASK, special));
});

const cell = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));
const truthOf = (sampleId: string) => truth.find(t => t.commit_sha.startsWith(sampleId))!;

/** Runs one commit through the scripted model; `breaks` asks the stand-in sites to change what they show. */
async function runModelSample(browser: Browser, server: ModelServer, t: CommitAuditTruth, breaks?: string): Promise<Result> {
  const id = t.commit_sha.slice(0, 7);
  server.setScript(TASK, id, commitAuditScript(t.commit_sha, checksVisionAnswer(t.checks)));
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  if (breaks) await context.setExtraHTTPHeaders({ [BREAK_HEADER]: breaks });
  try {
    const session = await SampleSession.prepare({
      task: bundledTask(TASK),
      sample: sampleOf({ sample_id: id, sha: t.commit_sha }),
      context,
      page: await context.newPage(),
      runId: 'model',
      attempt: 0,
      deciderMode: 'model',
      dir: tempDir(`bwa-audit-${id}-`),
    });
    return await session.run();
  } finally {
    await context.close();
  }
}

/** The address of the page a decision request showed (the page state's URL line; the history may name others). */
const pageUrl = (request: RecordedRequest): string => /<page_state>\nURL: "([^"]*)"/.exec(request.lastUserText)?.[1] ?? '';

test("scripted model: the whole chain across three hosts, every fact read from the DOM; on the checks page the screenshot riding in the decision (what the icons show — pixels a scripted eye cannot see, so the script states it from the site's check list, and sees it only when the request carries the image) picks the log to open; merged_with_failures and the judgment derived from what was read", async ({
  browser,
}) => {
  const env = await startScriptedModel();
  const { server } = env;
  try {
    const cases = readEnv('BWA_FULL') ? truth : MODEL_POSITIONS.map(k => truth[k - 1]!);
    const results: Result[] = [];
    for (const t of cases) results.push(await runModelSample(browser, server, t));
    expect(server.errors).toEqual([]);
    const rows = parse(combinedCsv(results), { columns: true }) as Row[];
    for (const row of rows) {
      const t = truthOf(row.sample_id!);
      const result = results.find(r => r.sample_id === row.sample_id)!;
      expect.soft(row.status, `${row.sample_id}: ${row.error}`).toBe('done');
      for (const field of [...FACT_FIELDS, 'merged_with_failures'] as const)
        expect.soft(row[field], `${row.sample_id}.${field}`).toBe(cell(t[field]));
      // A fact the page shows was read from it (an absent one — no pull request, no log — is null from either).
      for (const field of FACT_FIELDS) {
        if (t[field] !== null) expect.soft(result.extracted[field]?.provenance.source, `${row.sample_id}.${field} provenance`).toBe('dom');
      }
      const judgment = JSON.parse(row.judgment!) as { answer: string; evidence_refs: string[] };
      expect.soft(judgment.answer, `${row.sample_id} judgment`).toBe(t.judgment.answer);
      const files = result.artifacts.map(a => a.filename);
      expect.soft(files.length, `${row.sample_id} screenshots`).toBe(t.pr_number === null ? 1 : t.checks_failed ? 5 : 4);
      for (const ref of judgment.evidence_refs) expect.soft(files, `${row.sample_id} evidence_refs`).toContain(ref);
    }
    // Every checks page was looked at in the decision requests themselves (the icons are not in the DOM text): the
    // screenshot rode beside the page state, and no separate vision question was asked.
    expect(server.requests.filter(r => r.kind === 'vision')).toEqual([]);
    for (const t of cases.filter(c => c.pr_number !== null)) {
      const id = t.commit_sha.slice(0, 7);
      const onChecks = server.requests.filter(
        r => r.kind === 'decider' && r.key.sampleId === id && pageUrl(r).endsWith(`/pull/${t.pr_number}/checks`),
      );
      expect(onChecks.length, `${id}: decisions on the checks page`).toBeGreaterThan(0);
      expect(
        onChecks.every(r => r.hasImage),
        `${id}: each carries the screenshot`,
      ).toBe(true);
      const result = results.find(r => r.sample_id === id)!;
      expect(result.usage.by_purpose?.decide?.with_screenshot, `${id}: counted`).toBe(
        server.requests.filter(r => r.kind === 'decider' && r.key.sampleId === id && r.hasImage && r.response.status === 200).length,
      );
    }
    // Pages whose text is in the tree go without — but for the model's own screenshots (the pull request, the log, the
    // ticket: not the evidence the task requires), each shown in the decision right after it was taken.
    const offChecks = server.requests.filter(r => r.hasImage && !pageUrl(r).endsWith('/checks'));
    expect(offChecks.filter(r => !/sent because you took the screenshot "(pull_request|ci_log|ticket)"/.test(r.lastUserText)).map(pageUrl)).toEqual(
      [],
    );
  } finally {
    await env.restore();
  }
});

test('break one thing: the CI host shows an infrastructure annotation for a material unit-test failure — the run reports that annotation and judges "no" instead of the truth\'s "yes"', async ({
  browser,
}) => {
  const env = await startScriptedModel();
  try {
    const t = truth[1]!; // position 2: a material unit-test failure
    expect(t.judgment.answer, 'the unbroken site calls this failure material').toBe('yes');
    const result = await runModelSample(browser, env.server, t, CI_ANNOTATION_BREAK);
    expect(env.server.errors).toEqual([]);
    expect(result.extracted.ci_failure_details).toMatchObject({ value: INFRASTRUCTURE_FAILURE, provenance: { source: 'dom' } });
    expect(result.judgment?.answer).toBe('no');
    expect(result.judgment?.reasoning).toContain('not about the change');
  } finally {
    await env.restore();
  }
});

test('recipe: every commit of the acceptance set (all 60 with BWA_FULL=1), two workers — every fact field matches the site truth', async () => {
  const { rows } = await recipeRows(recipe());
  expect(rows.length).toBeGreaterThanOrEqual(readEnv('BWA_FULL') ? 60 : 5);
  for (const row of rows) {
    const t = truthOf(row.sample_id!);
    for (const field of FACT_FIELDS) expect.soft(row[field], `${row.sample_id}.${field}`).toBe(cell(t[field]));
    // A recipe cannot reason or compute: merged_with_failures and the judgment stay empty and the sample
    // goes to review (the gap is described in the workflow report). A direct push ends at the commit page.
    expect.soft(row.merged_with_failures, `${row.sample_id}.merged_with_failures`).toBe('');
    expect.soft(row.status, row.sample_id).toBe('needs_review');
    if (t.pr_number === null) {
      expect.soft(row.error, row.sample_id).toMatch(/recipe step 4 \(click\b[^)]*\) failed/);
      expect.soft(row.artifacts, row.sample_id).toBe('1');
    } else {
      expect.soft(row.error, row.sample_id).toMatch(/^a judgment is required/);
      expect.soft(row.artifacts, row.sample_id).toBe('5');
    }
  }
  expect(rows.filter(r => r.ci_failure_details !== '').length).toBe(rows.filter(r => truthOf(r.sample_id!).ci_failure_details).length);
  // Every kind of commit is in the set: a direct push, an expired log, all green, a failure with its log.
  const kinds = new Set(
    rows
      .map(r => truthOf(r.sample_id!))
      .map(t => (t.pr_number === null ? 'push' : !t.checks_failed ? 'green' : t.ci_failure_details ? 'failure' : 'expired')),
  );
  expect([...kinds].sort()).toEqual(['expired', 'failure', 'green', 'push']);
});
