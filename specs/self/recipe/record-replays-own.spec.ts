import { expect, test } from '@playwright/test';
import { recipeStore } from '../../../agent/recipe/recipe-store';
import type { Result } from '../../../agent/evidence/result-schema';
import { checksVisionAnswer, commitAuditScript } from '../../../fixtures/model-scripts/commit-audit';
import type { CommitAuditTruth } from '../../../fixtures/sites/codehost/truth';
import { bundledTask, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { runSampleAlone, storedEntry, valuesOf } from './helpers';

const TASK = 'commit_audit';

const env = useScriptedModel({ AGENT_RECORD: '1', AGENT_JUDGE: 'batch' });

const sampleOfCommit = (t: CommitAuditTruth) => sampleOf({ sample_id: t.commit_sha.slice(0, 7), sha: t.commit_sha });

/**
 * The reads a model makes by ref on the audit chain: an unnamed paragraph holding the commit's SHA, a block of
 * text starting with the pull request's author, several reviewer links at once. A recipe recorded from them must
 * give each recorded sample back the values the model read, with no model call.
 */
test('AGENT_RECORD=1 on commit_audit, the model reading by ref: the recorded recipe replays both recorded samples to the values they recorded, with no model call', async ({
  browser,
}) => {
  // Two model samples, a compile that replays three times, two replays: about a minute alone.
  test.setTimeout(300_000);
  const commits: CommitAuditTruth[] = Object.values((await (await fetch('http://127.0.0.1:4104/__truth.json')).json()).commits);
  // Several approvers (read as a list of refs) and a failing check whose log is read: both kinds of read in two samples.
  const severalApprovers = commits.find(c => (c.approvers?.length ?? 0) >= 2 && c.checks_failed === 0)!;
  const failing = commits.find(c => c.ci_failure_details !== null && (c.approvers?.length ?? 0) >= 1)!;
  const task = bundledTask(TASK, { recipe: undefined });
  const samples = [failing, severalApprovers];
  const recorded: Result[] = [];
  for (const commit of samples) {
    env.server.setScript(TASK, commit.commit_sha.slice(0, 7), commitAuditScript(commit.commit_sha, checksVisionAnswer(commit.checks)));
    recorded.push(await runSampleAlone(browser, task, sampleOfCommit(commit), 'auto'));
  }
  expect(env.server.errors).toEqual([]);
  expect(recorded.map(r => [r.decider, r.status])).toEqual([
    ['model', 'done'],
    ['model', 'done'],
  ]);
  const approversRead = recorded[1]!.extracted.approvers!;
  expect(approversRead.provenance.locator, 'the approvers were read as a list of refs').toContain(' + ');
  expect(recorded[1]!.notes.join('\n')).toMatch(/recipe compiled from \w+, checked on \w+/);
  expect(recipeStore().lookup(task).hit).toBe(true);
  const read = Object.entries(storedEntry(task).fields)
    .filter(([, binding]) => binding.how === 'dom')
    .map(([field]) => field);
  expect(read).toEqual(expect.arrayContaining(['commit_sha', 'pr_creator', 'approvers', 'merger', 'ci_failure_details']));

  const modelCalls = env.server.requests.length;
  for (const [i, original] of recorded.entries()) {
    const replay = await runSampleAlone(browser, task, sampleOfCommit(samples[i]!), 'recipe');
    // Every fact collected, the judgment left to the batch judge: no step failed.
    expect([replay.status, replay.judgment_pending, replay.error], replay.sample_id).toEqual(['needs_review', true, expect.any(String)]);
    const want = Object.fromEntries(read.map(field => [field, valuesOf(original)[field] ?? null]));
    const got = Object.fromEntries(read.map(field => [field, valuesOf(replay)[field] ?? null]));
    expect(got, replay.sample_id).toEqual(want);
  }
  expect(env.server.requests.length, 'the replays called no model').toBe(modelCalls);
});
