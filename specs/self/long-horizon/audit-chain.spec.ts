import type { BrowserContext } from '@playwright/test';
import { expect, test } from '../../../agent/fixture';
import type { Result } from '../../../agent/evidence/result-schema';
import { ACTION_LOG_FILE, CHECKPOINT_FILE } from '../../../agent/loop/recorder';
import { SampleSession } from '../../../agent/session';
import { settings } from '../../../agent/settings';
import type { Sample } from '../../../agent/task/samples';
import type { ModelServer } from '../../../fixtures/model-server';
import { contributorAuditScript, contributorItem } from '../../../fixtures/model-scripts/contributor-audit';
import { prAuditChainScript, prItem } from '../../../fixtures/model-scripts/pr-audit-chain';
import type { AuditTruth } from '../../../fixtures/sites/audit/truth';
import { bundledTask, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { auditTruth, deciderTurns, ensureAuditSite, readSampleJson, repoTruth, sampleFile, section, stepOf } from './audit-env';

const FAST_MODEL = 'claude-fast-test';

let env: Awaited<ReturnType<typeof useScriptedModel>>;
let server: ModelServer;
let truth: AuditTruth;

test.beforeAll(async ({ request }) => {
  await ensureAuditSite();
  env = await useScriptedModel({ AGENT_FAST_MODEL: FAST_MODEL, AGENT_MEMORY_DISTILL: 'on' });
  server = env.server;
  truth = await auditTruth(request);
});
test.beforeEach(ensureAuditSite);
test.afterAll(async () => env.restore());

interface Seen {
  items: number;
  step: number;
  stepsLogged: number;
  logLength: number;
  logHasSaveAtStep: boolean;
}

/**
 * Runs one sample and, each time the recorder writes checkpoint.json, reads it and action_log.json as they are on
 * disk at that moment: every live checkpoint, none missed.
 */
async function runWatched(context: BrowserContext, taskId: string, sample: Sample, list: string): Promise<{ result: Result; seen: Seen[] }> {
  const seen: Seen[] = [];
  const onFileWritten = (name: string) => {
    if (name !== CHECKPOINT_FILE) return;
    const checkpoint = readSampleJson(taskId, sample.sample_id, CHECKPOINT_FILE);
    const log = readSampleJson<Array<{ step: number; action: { name: string } }>>(taskId, sample.sample_id, ACTION_LOG_FILE);
    seen.push({
      items: (checkpoint.accumulated_data[list] ?? []).length,
      step: checkpoint.step,
      stepsLogged: checkpoint.steps_logged,
      logLength: log.length,
      logHasSaveAtStep: log.some(e => e.step === checkpoint.step && e.action.name === 'save_progress'),
    });
  };
  const session = await SampleSession.prepare({ task: bundledTask(taskId), sample, context, page: await context.newPage(), runId: settings.runId, attempt: 0, deciderMode: 'model', onFileWritten });
  return { result: await session.run(), seen };
}

test('PR audit chain: 5 PRs over ~38 steps, saved one by one, merged into result.json with the judgment (items and judgment stated by the scripted model: passed through, not read)', async ({ context }) => {
  const anvil = repoTruth(truth, 'acme/anvil');
  server.setScript('pr_audit_chain', 'anvil-chain', prAuditChainScript(anvil));
  const { result, seen } = await runWatched(context, 'pr_audit_chain', sampleOf({ sample_id: 'anvil-chain', owner: 'acme', repo: 'anvil' }), 'prs');
  expect(server.errors).toEqual([]);

  expect(result.status).toBe('done');
  expect(result.steps).toBeGreaterThanOrEqual(30);
  expect(result.steps).toBeLessThanOrEqual(50);
  expect(result.extracted.prs!.value).toEqual(anvil.recent_merged.map(prItem));
  expect(result.extracted.prs!.provenance.source).toBe('checkpoint');
  expect(result.extracted.total_audited!.value).toBe(5);
  expect(result.extracted.repo_name!.value).toBe('acme/anvil');
  expect(result.judgment).toMatchObject({ answer: anvil.audit_answer, exceptions: anvil.audit_exceptions });
  expect(result.artifacts.map(a => a.label)).toEqual(['merged-list', ...anvil.recent_merged.flatMap(pr => [`pr-${pr.number}`, `pr-${pr.number}-files`])]);
  expect(readSampleJson('pr_audit_chain', 'anvil-chain', 'result.json')).toEqual(result);

  // Live checkpoint: the saved items grew one at a time, each save flushed with the action log that led to it.
  const growth = seen.map(s => s.items).filter((n, i, all) => n > 0 && n !== all[i - 1]);
  expect(growth).toEqual([1, 2, 3, 4, 5]);
  for (const checkpoint of seen) expect(checkpoint.logLength).toBeGreaterThanOrEqual(checkpoint.stepsLogged);
  expect(seen.filter(s => s.logHasSaveAtStep).map(s => s.items)).toEqual(expect.arrayContaining([1, 2, 3, 4, 5]));
  const checkpoint = readSampleJson('pr_audit_chain', 'anvil-chain', 'checkpoint.json');
  expect(checkpoint).toMatchObject({ status: 'done', step: result.steps, max_steps: 50, steps_logged: result.steps });
  expect(checkpoint.progress_notes).toEqual(anvil.recent_merged.map((pr, i) => `PR ${i + 1} of 5 (#${pr.number}) audited`));
  expect(checkpoint.artifacts_so_far.map((a: { filename: string }) => a.filename)).toEqual(result.artifacts.map(a => a.filename));

  // Summaries every 10 steps by the fast model, shown as "Earlier steps (condensed)" in later decisions.
  const summaryRequests = server.requests.filter(r => r.kind === 'text' && r.key.sampleId === 'anvil-chain' && r.lastUserText.includes('Summarize these browser-agent steps'));
  expect(summaryRequests.map(r => r.model)).toEqual([FAST_MODEL, FAST_MODEL, FAST_MODEL]);
  const turns = deciderTurns(server.requests, 'anvil-chain');
  const at = (step: number) => turns.find(t => stepOf(t) === step)!;
  expect(section(at(9), 'Earlier steps (condensed)')).toBeUndefined();
  expect(section(at(10), 'Earlier steps (condensed)')).toContain('Steps 2-5:\nFOUND: summary@10: merged list screenshot taken.');
  expect(section(at(31), 'Earlier steps (condensed)')).toMatch(/Steps 2-5:[\s\S]*Steps 6-15:\nFOUND: summary@20: saved PRs #241, #239[\s\S]*Steps 16-25:\nFOUND: summary@30/);
  // The condensed steps left the verbatim history.
  expect(section(at(31), 'Action history (recent)')).not.toMatch(/^Step (2[0-5]|1\d|\d):/m);

  // On PR 5 the model still sees PRs 1-4 it saved long ago, and the pages it finished.
  const pr5 = anvil.recent_merged[4]!;
  const openingPr5 = turns.find(t => t.response.toolUses?.[0]?.name === 'click' && t.lastUserText.includes(`link "${pr5.title}"`) && stepOf(t) > 30)!;
  const collected = section(openingPr5, 'Data collected so far')!;
  for (const pr of anvil.recent_merged.slice(0, 4)) expect(collected).toContain(pr.title);
  expect(collected).not.toContain(pr5.title);
  expect(section(openingPr5, 'Run state')).toContain(`Exhausted pages (data already saved): 127.0.0.1:4108/acme/anvil/pull/${anvil.recent_merged[0]!.number}/files`);
  // Step summaries and the run-memory distillation (before result.json is written) are billed to the sample.
  const memoryRequests = server.requests.filter(r => r.kind === 'text' && r.key.sampleId === 'anvil-chain' && r.lastUserText.includes('navigation tips'));
  expect(result.usage.by_purpose).toMatchObject({ decide: { calls: turns.length }, summary: { calls: summaryRequests.length }, memory: { calls: memoryRequests.length } });
  expect(result.usage.model_calls).toBe(turns.length + summaryRequests.length + memoryRequests.length);
});

test('contributor deep audit: top 3 profiles on another host, one save each (items stated by the scripted model and passed through, each shown on the page it saved from), back to the ranking', async ({ context, request }) => {
  const people = (await (await request.get('http://127.0.0.1:4101/__truth.json')).json()).people;
  const ledger = repoTruth(truth, 'globex/ledger');
  server.setScript('contributor_audit', 'ledger-deep', contributorAuditScript(ledger));
  const { result, seen } = await runWatched(context, 'contributor_audit', sampleOf({ sample_id: 'ledger-deep', owner: 'globex', repo: 'ledger' }), 'contributors');
  expect(server.errors).toEqual([]);
  expect(result.status).toBe('done');
  const contributors = result.extracted.contributors!.value as Array<Record<string, unknown>>;
  expect(contributors).toEqual(ledger.top_contributors.map(contributorItem));
  // The saved items are stated by the scripted model (save_progress passes them through): what this proves is that
  // each one was on the profile the agent showed the model when it saved — name, company, exact follower count.
  const saves = deciderTurns(server.requests, 'ledger-deep').filter(t => t.response.toolUses?.[0]?.name === 'save_progress');
  expect(saves).toHaveLength(contributors.length);
  for (const [i, c] of contributors.entries()) {
    const shown = section(saves[i]!, 'Current page state')!;
    expect(shown, `${String(c.username)} on the page at its save`).toContain(`${(c.followers as number).toLocaleString('en-US')} followers`);
    for (const text of [c.username, c.name, c.company].filter((v): v is string => typeof v === 'string')) expect(shown, `${String(c.username)} on the page at its save`).toContain(text);
    expect(people[c.username as string], `${String(c.username)} is a person of the directory`).toBeDefined();
  }
  expect(contributors.some(c => c.company === null)).toBe(true);
  expect(seen.map(s => s.items).filter((n, i, all) => n > 0 && n !== all[i - 1])).toEqual([1, 2, 3]);
  const log = readSampleJson<Array<{ action: { name: string }; url_after: string }>>('contributor_audit', 'ledger-deep', 'action_log.json');
  expect(log.filter(e => e.action.name === 'go_back').map(e => e.url_after)).toEqual(Array(3).fill('http://127.0.0.1:4108/globex/ledger/graphs/contributors'));
  expect(new Set(log.map(e => new URL(e.url_after).port))).toEqual(new Set(['4108', '4101']));
  expect(result.artifacts.map(a => a.label)).toEqual(['contributors', ...ledger.top_contributors.flatMap(c => [`profile-${c.username}`, `followers-${c.username}`])]);
});

test('when the fast model fails, the summary is built mechanically (FOUND/GAPS/NEXT from the steps themselves)', async ({ agent }) => {
  const anvil = repoTruth(truth, 'acme/anvil');
  const script = prAuditChainScript(anvil, { items: 2 }) as { text: unknown[] };
  script.text = [{ contains: 'Summarize these browser-agent steps', answer: 'FOUND: never sent', fault: { kind: '500', times: 100, retry_after_ms: 5 } }];
  server.setScript('pr_audit_chain', 'anvil-mechanical', script as never);
  const result = await agent.run(bundledTask('pr_audit_chain'), sampleOf({ sample_id: 'anvil-mechanical', owner: 'acme', repo: 'anvil' }));
  expect(server.errors).toEqual([]);
  // Two of five PRs: the run ends short of expected_items.
  expect(result.status).toBe('partial_success');
  expect(result.error).toBe('expected 5 items, got 2');
  expect(result.extracted.prs!.value).toEqual(anvil.recent_merged.slice(0, 2).map(prItem));
  const failedSummaries = server.requests.filter(r => r.kind === 'text' && r.key.sampleId === 'anvil-mechanical' && r.lastUserText.includes('Summarize'));
  // The fast model was asked (with the SDK's retries) and never answered; no fallback model for summaries.
  expect(failedSummaries.map(r => `${r.model} ${r.response.status}`)).toEqual(Array(3).fill(`${FAST_MODEL} 500`));
  const pr = anvil.recent_merged[0]!;
  const turns = deciderTurns(server.requests, 'anvil-mechanical');
  expect(section(turns.find(t => stepOf(t) === 10)!, 'Earlier steps (condensed)')).toBe(
    `## Earlier steps (condensed)\nSteps 2-5:\nFOUND: Screenshot saved: 01_merged-list.png; Screenshot saved: 02_pr-${pr.number}.png\nGAPS: none recorded\nNEXT: count the changed files`,
  );
});
