import type { BrowserContext } from '@playwright/test';
import { expect, test } from '../../../agent/fixture';
import type { Result } from '../../../agent/evidence/result-schema';
import { ACTION_LOG_FILE, CHECKPOINT_FILE } from '../../../agent/loop/recorder';
import { SampleSession } from '../../../agent/session';
import { settings } from '../../../agent/settings';
import type { Sample } from '../../../agent/task/samples';
import { BREAK_HEADER } from '../../../fixtures/lib/break-switch';
import { CONTRIBUTOR_FIELDS, contributorAuditScript } from '../../../fixtures/model-scripts/contributor-audit';
import { PR_FIELDS, prAuditChainScript, prChainSteps } from '../../../fixtures/model-scripts/pr-audit-chain';
import { findRepo } from '../../../fixtures/sites/audit/data';
import { APPROVALS_BY_AUTHOR_BREAK, CONTRIBUTORS_REVERSED_BREAK } from '../../../fixtures/sites/audit/site';
import type { AuditTruth } from '../../../fixtures/sites/audit/truth';
import { bundledTask, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { auditTruth, deciderTurns, readSampleJson, repoTruth, section, stepOf, trueContributor, truePr } from './audit-env';
import { SITE } from '../helpers/sites';

const FAST_MODEL = 'claude-haiku-5-5';

const model = useScriptedModel({ AGENT_FAST_MODEL: FAST_MODEL, AGENT_MEMORY_DISTILL: 'on' });
let truth: AuditTruth;

test.beforeAll(async ({ request }) => {
  truth = await auditTruth(request);
});

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
async function runWatched(
  context: BrowserContext,
  taskId: string,
  sample: Sample,
  list: string,
  overrides: Record<string, unknown> = {},
): Promise<{ result: Result; seen: Seen[] }> {
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
  const session = await SampleSession.prepare({
    task: bundledTask(taskId, overrides),
    sample,
    context,
    page: await context.newPage(),
    runId: settings.runId,
    attempt: 0,
    deciderMode: 'model',
    onFileWritten,
  });
  return { result: await session.run(), seen };
}

type LogEntry = { step: number; action: { name: string; args: Record<string, unknown> }; outcome: { success: boolean }; check?: boolean };

/** How many times each field was read with a successful extract, from the sample's action log (only reads kept as checks, when asked). */
function extractsPerField(taskId: string, sampleId: string, onlyChecks = false): Record<string, number> {
  const log = readSampleJson<LogEntry[]>(taskId, sampleId, ACTION_LOG_FILE);
  const counts: Record<string, number> = {};
  for (const e of log)
    if (e.action.name === 'extract' && e.outcome.success && (!onlyChecks || e.check))
      counts[String(e.action.args.field)] = (counts[String(e.action.args.field)] ?? 0) + 1;
  return counts;
}

test('PR audit chain: 5 PRs, every field read with extract and saved one by one, merged into result.json with the judgment derived from the saved values (repo_name stated from the sample input)', async ({
  context,
}) => {
  // Five PRs read field by field: 28.5 s in a full suite run on the 2-core machine, past 30 s when it is busier.
  test.setTimeout(120_000);
  const anvil = repoTruth(truth, 'acme/anvil');
  const layout = prChainSteps();
  model.server.setScript('pr_audit_chain', 'anvil-chain', prAuditChainScript('acme/anvil'));
  const { result, seen } = await runWatched(context, 'pr_audit_chain', sampleOf({ sample_id: 'anvil-chain', owner: 'acme', repo: 'anvil' }), 'prs');
  expect(model.server.errors).toEqual([]);

  expect(result.status).toBe('done');
  expect(result.steps).toBe(layout.done);
  // What the agent read matches the site's truth, field by field, and each field was read once per PR from the DOM.
  expect(result.extracted.prs!.value).toEqual(anvil.recent_merged.map(truePr));
  expect(result.extracted.prs!.provenance.source).toBe('checkpoint');
  // An item's parts are read into fields the output does not name: kept in the action log as checks, never output.
  expect(extractsPerField('pr_audit_chain', 'anvil-chain', true)).toEqual(Object.fromEntries(PR_FIELDS.map(field => [field, 5])));
  for (const field of PR_FIELDS) expect(result.extracted[field], `${field} of the last PR is no output field`).toBeUndefined();
  expect(result.extracted.total_audited!.value).toBe(5);
  expect(result.extracted.repo_name!.value).toBe('acme/anvil');
  expect(result.judgment).toMatchObject({ answer: anvil.audit_answer, exceptions: anvil.audit_exceptions });
  expect(result.artifacts.map(a => a.label)).toEqual([
    'merged-list',
    ...anvil.recent_merged.flatMap(pr => [`pr-${pr.number}`, `pr-${pr.number}-files`]),
  ]);
  expect(readSampleJson('pr_audit_chain', 'anvil-chain', 'result.json')).toEqual(result);

  // Live checkpoint: the saved items grew one at a time, each save flushed with the action log that led to it.
  const growth = seen.map(s => s.items).filter((n, i, all) => n > 0 && n !== all[i - 1]);
  expect(growth).toEqual([1, 2, 3, 4, 5]);
  for (const checkpoint of seen) expect(checkpoint.logLength).toBeGreaterThanOrEqual(checkpoint.stepsLogged);
  expect(seen.filter(s => s.logHasSaveAtStep).map(s => s.step)).toEqual(expect.arrayContaining(layout.saves));
  const checkpoint = readSampleJson('pr_audit_chain', 'anvil-chain', 'checkpoint.json');
  expect(checkpoint).toMatchObject({
    status: 'done',
    step: result.steps,
    max_steps: bundledTask('pr_audit_chain').spec.max_steps,
    steps_logged: result.steps,
  });
  expect(checkpoint.progress_notes).toEqual(anvil.recent_merged.map((pr, i) => `PR ${i + 1} (#${pr.number}) audited`));
  expect(checkpoint.artifacts_so_far.map((a: { filename: string }) => a.filename)).toEqual(result.artifacts.map(a => a.filename));

  // Summaries every 10 steps by the fast model, shown as "Earlier steps (condensed)" in later decisions.
  const summaryRequests = model.server.requests.filter(
    r => r.kind === 'text' && r.key.sampleId === 'anvil-chain' && r.lastUserText.includes('Summarize these browser-agent steps'),
  );
  expect(summaryRequests.map(r => r.model)).toEqual(Array(Math.floor(layout.done / 10)).fill(FAST_MODEL));
  const turns = deciderTurns(model.server.requests, 'anvil-chain');
  const at = (step: number) => turns.find(t => stepOf(t) === step)!;
  expect(section(at(9), 'Earlier steps (condensed)')).toBeUndefined();
  expect(section(at(10), 'Earlier steps (condensed)')).toContain('Steps 2-5:\nFOUND: summary@10: merged list screenshot taken.');
  expect(section(at(31), 'Earlier steps (condensed)')).toMatch(
    /Steps 2-5:[\s\S]*Steps 6-15:\nFOUND: summary@20: [\s\S]*Steps 16-25:\nFOUND: summary@30/,
  );
  // The condensed steps left the verbatim history.
  expect(section(at(31), 'Action history (recent)')).not.toMatch(/^Step (2[0-5]|1\d|\d):/m);

  // On PR 5 the model still sees PRs 1-4 it saved long ago (as it read them), and the pages it finished.
  const pr5 = anvil.recent_merged[4]!;
  const openingPr5 = at(layout.opens[4]!);
  expect(openingPr5.lastUserText).toContain(`link "${pr5.title}"`);
  const collected = section(openingPr5, 'Data collected so far')!;
  for (const pr of anvil.recent_merged.slice(0, 4)) expect(collected).toContain(pr.title);
  expect(collected).not.toContain(pr5.title);
  expect(section(openingPr5, 'Run state')).toContain(
    `Exhausted pages (data already saved): 127.0.0.1:4108/acme/anvil/pull/${anvil.recent_merged[0]!.number}/files`,
  );
  // Step summaries and the run-memory distillation (before result.json is written) are billed to the sample.
  const memoryRequests = model.server.requests.filter(
    r => r.kind === 'text' && r.key.sampleId === 'anvil-chain' && r.lastUserText.includes('navigation tips'),
  );
  expect(result.usage.by_purpose).toMatchObject({
    decide: { calls: turns.length },
    summary: { calls: summaryRequests.length },
    memory: { calls: memoryRequests.length },
  });
  expect(result.usage.model_calls).toBe(turns.length + summaryRequests.length + memoryRequests.length);
});

test('break one thing: the audit site shows every approval as given by the PR author — the saved approved_by follow the page and the judgment turns to "no" where the truth says "yes" (a 2-PR chain)', async ({
  context,
}) => {
  const anvil = repoTruth(truth, 'acme/anvil');
  const audited = anvil.recent_merged.slice(0, 2);
  expect(audited.every(pr => !anvil.audit_exceptions.includes(pr.number))).toBe(true);
  await context.setExtraHTTPHeaders({ [BREAK_HEADER]: APPROVALS_BY_AUTHOR_BREAK });
  model.server.setScript('pr_audit_chain', 'anvil-self-approved', prAuditChainScript('acme/anvil', { items: 2 }));
  const { result } = await runWatched(
    context,
    'pr_audit_chain',
    sampleOf({ sample_id: 'anvil-self-approved', owner: 'acme', repo: 'anvil' }),
    'prs',
    { expected_items: 2 },
  );
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  const prs = result.extracted.prs!.value as Array<Record<string, unknown>>;
  expect(prs.map(pr => pr.number)).toEqual(audited.map(pr => pr.number));
  for (const [i, pr] of audited.entries()) {
    expect(prs[i]!.approved_by, `#${pr.number} approved_by as shown`).toEqual(pr.approved_by.map(() => pr.author));
    expect(prs[i]!.approved_by).not.toEqual(pr.approved_by);
  }
  expect(result.judgment).toMatchObject({ answer: 'no', exceptions: audited.map(pr => pr.number) });
});

test('contributor deep audit: top 3 profiles on another host in the order the ranking prints, login, name, exact followers and the company a profile names each read with extract (one that names none stated null), one save each, back to the ranking (repo_name stated from the sample input)', async ({
  context,
}) => {
  const ledger = repoTruth(truth, 'globex/ledger');
  model.server.setScript('contributor_audit', 'ledger-deep', contributorAuditScript('globex/ledger'));
  const { result, seen } = await runWatched(
    context,
    'contributor_audit',
    sampleOf({ sample_id: 'ledger-deep', owner: 'globex', repo: 'ledger' }),
    'contributors',
  );
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  // What the agent read on the people directory matches the truth; a company no profile line names is stated null.
  expect(result.extracted.contributors!.value).toEqual(ledger.top_contributors.map(trueContributor));
  const named = ledger.top_contributors.filter(c => c.company !== null).length;
  expect(named).toBeLessThan(3);
  expect(extractsPerField('contributor_audit', 'ledger-deep')).toEqual({
    ...Object.fromEntries(CONTRIBUTOR_FIELDS.map(field => [field, 3])),
    company: named,
  });
  for (const field of CONTRIBUTOR_FIELDS) expect(result.extracted[field], `${field} of the last contributor is no output field`).toBeUndefined();
  expect(result.extracted.total_audited!.value).toBe(3);
  expect(seen.map(s => s.items).filter((n, i, all) => n > 0 && n !== all[i - 1])).toEqual([1, 2, 3]);
  const log = readSampleJson<Array<{ action: { name: string }; url_after: string }>>('contributor_audit', 'ledger-deep', 'action_log.json');
  expect(log.filter(e => e.action.name === 'go_back').map(e => e.url_after)).toEqual(
    Array(3).fill(`${SITE.audit}/globex/ledger/graphs/contributors`),
  );
  expect(new Set(log.map(e => new URL(e.url_after).port))).toEqual(new Set(['4108', '4101']));
  expect(result.artifacts.map(a => a.label)).toEqual([
    'contributors',
    ...ledger.top_contributors.flatMap(c => [`profile-${c.username}`, `followers-${c.username}`]),
  ]);
});

test('break one thing: the ranking printed least commits first — the run audits the three it shows on top, not the truth top three', async ({
  context,
}) => {
  const ledger = repoTruth(truth, 'globex/ledger');
  await context.setExtraHTTPHeaders({ [BREAK_HEADER]: CONTRIBUTORS_REVERSED_BREAK });
  model.server.setScript('contributor_audit', 'ledger-reversed', contributorAuditScript('globex/ledger'));
  const { result } = await runWatched(
    context,
    'contributor_audit',
    sampleOf({ sample_id: 'ledger-reversed', owner: 'globex', repo: 'ledger' }),
    'contributors',
  );
  expect(model.server.errors).toEqual([]);
  const saved = (result.extracted.contributors!.value as Array<{ username: string }>).map(c => c.username);
  const shownOnTop = [...findRepo('globex', 'ledger')!.contributors]
    .reverse()
    .slice(0, 3)
    .map(c => c.username);
  expect(saved).toEqual(shownOnTop);
  expect(saved).not.toEqual(ledger.top_contributors.map(c => c.username));
});

test('when the fast model fails, the summary is built mechanically (FOUND/GAPS/NEXT from the steps themselves)', async ({ agent }) => {
  const anvil = repoTruth(truth, 'acme/anvil');
  const script = prAuditChainScript('acme/anvil', { items: 2 }) as { text: unknown[] };
  script.text = [
    { contains: 'Summarize these browser-agent steps', answer: 'FOUND: never sent', fault: { kind: '500', times: 100, retry_after_ms: 5 } },
  ];
  model.server.setScript('pr_audit_chain', 'anvil-mechanical', script as never);
  const result = await agent.run(bundledTask('pr_audit_chain'), sampleOf({ sample_id: 'anvil-mechanical', owner: 'acme', repo: 'anvil' }));
  expect(model.server.errors).toEqual([]);
  // Two of five PRs: the run ends short of expected_items.
  expect(result.status).toBe('partial_success');
  expect(result.error).toBe('expected 5 items, got 2');
  expect(result.extracted.prs!.value).toEqual(anvil.recent_merged.slice(0, 2).map(truePr));
  const failedSummaries = model.server.requests.filter(
    r => r.kind === 'text' && r.key.sampleId === 'anvil-mechanical' && r.lastUserText.includes('Summarize'),
  );
  // The fast model was asked for each summary (every 10 steps, 3 tries each with the SDK's retries) and never
  // answered; no fallback model for summaries.
  const summaries = Math.floor(prChainSteps(2).done / 10);
  expect(failedSummaries.map(r => `${r.model} ${r.response.status}`)).toEqual(Array(3 * summaries).fill(`${FAST_MODEL} 500`));
  const pr = anvil.recent_merged[0]!;
  const turns = deciderTurns(model.server.requests, 'anvil-mechanical');
  // Steps 2-5: the list screenshot, the CI status read from the first row, the click, the PR screenshot.
  const condensed = section(
    turns.find(t => stepOf(t) === 10)!,
    'Earlier steps (condensed)',
  )!;
  expect(condensed.replace(/\[(?:f\d+)?e\d+\]/g, '[ref]')).toBe(
    `## Earlier steps (condensed)\nSteps 2-5:\nFOUND: Screenshot saved: 01_merged-list.png; ci_status = "${pr.ci_status}" (from [ref] listitem); Screenshot saved: 02_pr-${pr.number}.png\nGAPS: none recorded\nNEXT: read its number, title, author and reviewers`,
  );
});
