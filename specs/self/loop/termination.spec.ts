import { expect, test } from '../../../agent/fixture';
import type { Result } from '../../../agent/evidence/result-schema';
import type { RepoTruth } from '../../../fixtures/sites/audit/truth';
import { bundledTask, sampleOf, useScriptedModel } from '../helpers/agent-env';
import {
  AUDIT_URL,
  auditTruth,
  deciderTurns,
  openNthPr,
  readSampleJson,
  repoTruth,
  savedByModel,
  shownPrNumber,
  stateShownPr,
  stepOf,
} from '../workflows/audit-env';
import { prHeading } from '../../../fixtures/model-scripts/pr-audit-chain';
import { modelSettings } from '../../../agent/decide/model-settings';
import type { PromptView } from '../../../fixtures/model-server/script-schema';

/** Every way a long run ends without its own done: the right status, and result, checkpoint and log on disk. */

// The default AGENT_MODEL (the current Sonnet), named so the assertions can say which model answered.
const PRIMARY = 'claude-sonnet-5-5';
const FALLBACK = 'claude-opus-5-5';

const model = useScriptedModel({ AGENT_MODEL: PRIMARY });
let anvil: RepoTruth;

test.beforeAll(async ({ request }) => {
  anvil = repoTruth(await auditTruth(request), 'acme/anvil');
});
test.afterEach(() => {
  delete process.env.AGENT_FALLBACK_MODEL;
});

const task = (overrides: Record<string, unknown>) => bundledTask('pr_audit_chain', overrides);
const sample = (id: string) => sampleOf({ sample_id: id, owner: 'acme', repo: 'anvil' });
const first = () => anvil.recent_merged[0]!;
/** Open the newest PR and save its heading as shown (a stated item): the run has data from here on. */
const saveFirstPr = () => [openNthPr(0), stateShownPr('PR 1 of 5 audited')];
/** The item saveFirstPr saved, as the model sent it: the result must pass it through unchanged. */
const firstSaved = (sampleId: string) => {
  const saves = savedByModel(model.server.requests, sampleId);
  expect(saves).toEqual([{ prs: [{ heading: `${first().title} #${first().number}` }] }]);
  return saves[0]!.prs;
};
const consolidatedDone = { tool: 'done', args: { extracted: { repo_name: 'acme/anvil', total_audited: 1 } } };

/** result.json, checkpoint.json (same final status) and action_log.json are all on disk. */
function expectRecord(
  sampleId: string,
  status: Result['status'],
): { result: Result; log: Array<{ step: number; action: { name: string }; outcome: { success: boolean; error?: string } }> } {
  const result = readSampleJson<Result>('pr_audit_chain', sampleId, 'result.json');
  expect(result.status).toBe(status);
  expect(readSampleJson('pr_audit_chain', sampleId, 'checkpoint.json')).toMatchObject({ status, step: result.steps });
  const log = readSampleJson('pr_audit_chain', sampleId, 'action_log.json');
  expect(log.length).toBeGreaterThan(0);
  return { result, log };
}

/** The final consolidation asks for one `done` call, told the run is ending (forced only where a model takes forcing). */
function consolidationRequests(sampleId: string) {
  return model.server.requests.filter(r => r.key.sampleId === sampleId && r.lastUserText.includes('The run for this sample is ending now'));
}

test('max_time_seconds: a site slower than the time left stops the run; the saved item (stated) is passed through into partial_success', async ({
  agent,
}) => {
  model.server.setScript('pr_audit_chain', 'timeout', {
    steps: [...saveFirstPr(), { tool: 'goto', args: { url: `${AUDIT_URL}/acme/anvil/pulls?state=merged&delay=60000` } }, consolidatedDone],
  });
  // Enough time for the first steps on a loaded machine; the slow page outlasts what is left of it.
  const result = await agent.run(task({ max_time_seconds: 25 }), sample('timeout'));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('partial_success');
  expect(result.error).toBe('the time budget (max_time_seconds) ran out: 25s');
  expect(result.extracted.prs!.value).toEqual(firstSaved('timeout'));
  expect(result.extracted.total_audited).toMatchObject({ value: 1, provenance: { source: 'model' } });
  expect(result.notes).toContain(`final consolidation by ${PRIMARY}`);
  const [consolidation] = consolidationRequests('timeout');
  expect(consolidation!.lastUserText).toContain('The run for this sample is ending now (the time budget (max_time_seconds) ran out: 25s)');
  // The current Sonnet refuses a forced tool: the prompt asks for done instead.
  expect(consolidation!.toolChoice).toEqual({ type: 'auto' });
  const { log } = expectRecord('timeout', 'partial_success');
  expect(log.at(-1)).toMatchObject({ action: { name: 'goto' }, outcome: { success: false } });
});

test('network circuit breaker: max_consecutive_network_errors infra failures in a row end the run (the saved item, stated, passed through)', async ({
  agent,
}) => {
  const faulty = (n: number, fault: string) => ({
    tool: 'goto',
    args: { url: `${AUDIT_URL}/acme/anvil/pulls?state=merged&try=${n}&fault=${fault}` },
  });
  model.server.setScript('pr_audit_chain', 'network', {
    steps: [...saveFirstPr(), faulty(1, '500'), faulty(2, 'reset'), faulty(3, '500'), consolidatedDone],
  });
  const result = await agent.run(task({ max_consecutive_network_errors: 3 }), sample('network'));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('partial_success');
  expect(result.error).toBe('too many consecutive network/browser errors: 3 in a row');
  expect(result.extracted.prs!.value).toEqual(firstSaved('network'));
  const { log } = expectRecord('network', 'partial_success');
  const failures = log.filter(e => !e.outcome.success);
  expect(failures.map(e => e.outcome.error)).toEqual([
    expect.stringContaining('HTTP 500'),
    expect.stringMatching(/ERR_(CONNECTION_RESET|EMPTY_RESPONSE)/),
    expect.stringContaining('HTTP 500'),
  ]);
  expect(consolidationRequests('network')).toHaveLength(1);
});

test('max_steps with data: the final step offers only done|fail; an unusable final answer leads to consolidation and partial_success (the saved item, stated, passed through)', async ({
  agent,
}) => {
  model.server.setScript('pr_audit_chain', 'steps-data', {
    steps: [
      ...saveFirstPr(),
      { tool: 'click', target: { role: 'link', name: 'Files changed' } },
      { tool: 'go_back', args: {} },
      { ...consolidatedDone, fault: { kind: 'malformed' } },
    ],
  });
  // A malformed answer does not use up its script step: the consolidation request is answered with it, well-formed.
  const result = await agent.run(task({ max_steps: 6 }), sample('steps-data'));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('partial_success');
  expect(result.error).toBe('the step budget was used up: 6 steps');
  const turns = deciderTurns(model.server.requests, 'steps-data');
  const last = turns.find(t => stepOf(t) === 6)!;
  // The tools stay byte-identical on every turn (they open the cached prefix); the last step is said in the prompt.
  expect(last.tools).toEqual(turns[0]!.tools);
  expect(last.lastUserText).toContain('LAST STEP: only done or fail are available now.');
  const { log } = expectRecord('steps-data', 'partial_success');
  expect(log.at(-1)).toMatchObject({
    step: 6,
    action: { name: 'done' },
    outcome: { success: false, error: expect.stringContaining('Invalid arguments for done') },
  });
  expect(consolidationRequests('steps-data')).toHaveLength(1);
  expect(result.extracted).toMatchObject({ prs: { value: firstSaved('steps-data') }, total_audited: { value: 1 } });
});

test('max_steps without data: failed, with no consolidation call', async ({ agent }) => {
  model.server.setScript('pr_audit_chain', 'steps-empty', {
    steps: [openNthPr(0), { tool: 'click', target: { role: 'link', name: 'Files changed' } }, { ...consolidatedDone, fault: { kind: 'malformed' } }],
  });
  await expect(agent.run(task({ max_steps: 4 }), sample('steps-empty'))).rejects.toThrow(
    /steps-empty: failed — the step budget was used up: 4 steps/,
  );
  expect(model.server.errors).toEqual([]);
  const { result } = expectRecord('steps-empty', 'failed');
  expect(result.extracted).toEqual({});
  expect(consolidationRequests('steps-empty')).toHaveLength(0);
});

test('model failure with data: after the SDK retries and the fallback fail, the fallback model consolidates → partial_success (the saved item, stated, passed through)', async ({
  agent,
}) => {
  process.env.AGENT_FALLBACK_MODEL = FALLBACK;
  // 3 primary attempts (AGENT_MODEL_RETRIES=2) + 1 fallback attempt are all overloaded; the 5th request is answered.
  model.server.setScript('pr_audit_chain', 'outage', {
    steps: [...saveFirstPr(), { ...consolidatedDone, fault: { kind: '529', times: 4, retry_after_ms: 10 } }],
  });
  const result = await agent.run(task({}), sample('outage'));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('partial_success');
  expect(result.error).toMatch(
    new RegExp(
      `^the model could not be reached: model ${PRIMARY}: overloaded \\(529\\) after retries .*; fallback model ${FALLBACK}: overloaded \\(529\\)`,
    ),
  );
  const outageTurn = model.server.requests.filter(r => r.key.sampleId === 'outage' && r.turn === 3);
  expect(outageTurn.map(r => [r.model, r.response.status])).toEqual([
    [PRIMARY, 529],
    [PRIMARY, 529],
    [PRIMARY, 529],
    [FALLBACK, 529],
    [FALLBACK, 200],
  ]);
  expect(outageTurn.map(r => r.headers.retryCount)).toEqual(['0', '1', '2', '0', '0']);
  expect(outageTurn.at(-1)!.toolChoice).toEqual({ type: 'auto' });
  expect(result.notes).toContain(`final consolidation by ${FALLBACK}`);
  expect(result.extracted).toMatchObject({ prs: { value: firstSaved('outage') }, total_audited: { value: 1 } });
  expectRecord('outage', 'partial_success');
});

test('fallback model after the SDK retries: the run goes on, the switch is noted, the next turn is back on the primary', async ({ agent }) => {
  process.env.AGENT_FALLBACK_MODEL = FALLBACK;
  model.server.setScript('pr_audit_chain', 'fallback', {
    steps: [
      openNthPr(0),
      { tool: 'screenshot', args: { label: 'pull-request' }, fault: { kind: '500', times: 50, model: PRIMARY, retry_after_ms: 10 } },
      stateShownPr(),
      { tool: 'done', args: { extracted: { repo_name: 'acme/anvil', total_audited: 1 } } },
    ],
  });
  const result = await agent.run(task({ required_artifacts: [], judgment_required: false, expected_items: null }), sample('fallback'));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  const requests = model.server.requests.filter(r => r.key.sampleId === 'fallback' && r.kind === 'decider');
  expect(requests.map(r => `${r.turn}:${r.model}:${r.response.status}`)).toEqual([
    `1:${PRIMARY}:200`,
    `2:${PRIMARY}:500`,
    `2:${PRIMARY}:500`,
    `2:${PRIMARY}:500`,
    `2:${FALLBACK}:200`,
    `3:${PRIMARY}:200`,
    `4:${PRIMARY}:200`,
  ]);
  expect(result.notes).toContain(`step 3: primary model ${PRIMARY} failed; fallback ${FALLBACK} answered`);
  const log = readSampleJson<Array<{ step: number; model?: string }>>('pr_audit_chain', 'fallback', 'action_log.json');
  expect(log.find(e => e.step === 3)!.model).toBe(FALLBACK);
});

test.describe('multi-action batching (AGENT_MULTI_ACTIONS, on by default)', () => {
  test.afterEach(() => {
    delete process.env.AGENT_MULTI_ACTIONS;
  });

  // The label's number and the title come from the heading the page state prints: checked against the truth.
  const screenshotAndTitle = (view: PromptView) => [
    { tool: 'screenshot', args: { label: `pr-${shownPrNumber(view)}` } },
    { tool: 'extract', target: { ref: prHeading(view).ref! }, args: { field: 'pr_title', pattern: '^(.*) #\\d+$' } },
  ];
  const plainTask = () =>
    task({ required_artifacts: [], required_fields: [], judgment_required: false, expected_items: null, output_schema: { pr_title: 'string' } });
  /** The action log as "step[.sub_step] action". */
  const loggedSteps = (sampleId: string) =>
    readSampleJson<Array<{ step: number; sub_step?: number; action: { name: string } }>>('pr_audit_chain', sampleId, 'action_log.json').map(
      e => `${e.step}${e.sub_step ? `.${e.sub_step}` : ''} ${e.action.name}`,
    );

  test('at most 3 actions per turn, each logged as its own sub-step; calls past the limit and a batch cut by a navigation are said on the next turn', async ({
    agent,
  }) => {
    const pr = first();
    model.server.setScript('pr_audit_chain', 'batch', {
      steps: [
        openNthPr(0),
        {
          what: 'screenshot, read the title, screenshot the checks, one more screenshot',
          decide: (view: PromptView) => ({
            batch: [
              ...screenshotAndTitle(view),
              { tool: 'screenshot', target: { text: 'All checks have passed' }, args: { label: 'checks' } },
              { tool: 'screenshot', args: { label: 'never-taken' } },
            ],
          }),
        },
        {
          batch: [
            { tool: 'click', target: { role: 'link', name: 'Files changed' } },
            { tool: 'screenshot', args: { label: 'stale-1' } },
            { tool: 'screenshot', args: { label: 'stale-2' } },
          ],
        },
        {
          what: 'screenshot the files, labelled with the number the heading shows',
          decide: (view: PromptView) => ({ tool: 'screenshot', target: { text: 'Showing ' }, args: { label: `pr-${shownPrNumber(view)}-files` } }),
        },
        { tool: 'done', args: { extracted: { repo_name: 'acme/anvil', total_audited: 0 } } },
      ],
    });
    const result = await agent.run(plainTask(), sample('batch'));
    expect(model.server.errors).toEqual([]);
    expect(result.status).toBe('done');
    expect(result.artifacts.map(a => a.label)).toEqual([`pr-${pr.number}`, 'checks', `pr-${pr.number}-files`]);
    expect(result.extracted.pr_title!.value).toBe(pr.title);
    expect(loggedSteps('batch')).toEqual([
      '1 goto',
      '2 click',
      '3.1 screenshot',
      '3.2 extract',
      '3.3 screenshot',
      '4.1 click',
      '5 screenshot',
      '6 done',
    ]);
    const turns = deciderTurns(model.server.requests, 'batch');
    expect(turns[0]!.toolChoice).toEqual({ type: 'auto', disable_parallel_tool_use: false });
    expect(turns.find(t => stepOf(t) === 5)!.lastUserText).toContain(
      '2 more action(s) of your batch were not run: the page navigated. Look at the new page state.',
    );
    expect(turns.find(t => stepOf(t) === 4)!.lastUserText).not.toContain('of your batch were not run');
    expect(turns.find(t => stepOf(t) === 4)!.lastUserText).toContain(
      '1 more action(s) of your last turn were not run (screenshot): at most 3 per turn.',
    );
    expect(turns[0]!.system[0]!.text).toContain('or up to 3 for independent actions');
  });

  test('AGENT_MULTI_ACTIONS=0: one call a turn is asked for and said, and a model that would batch makes the same calls one per turn', async ({
    agent,
  }) => {
    process.env.AGENT_MULTI_ACTIONS = '0';
    model.server.setScript('pr_audit_chain', 'serial', {
      steps: [
        openNthPr(0),
        {
          what: 'screenshot and read the title',
          decide: (view: PromptView) => ({ batch: screenshotAndTitle(view) }),
        },
        { tool: 'done', args: { extracted: { repo_name: 'acme/anvil', total_audited: 0 } } },
      ],
    });
    const result = await agent.run(plainTask(), sample('serial'));
    expect(model.server.errors).toEqual([]);
    expect(result.status).toBe('done');
    expect(result.extracted.pr_title!.value).toBe(first().title);
    expect(loggedSteps('serial')).toEqual(['1 goto', '2 click', '3 screenshot', '4 extract', '5 done']);
    const turns = deciderTurns(model.server.requests, 'serial');
    expect(turns.every(t => JSON.stringify(t.toolChoice) === JSON.stringify({ type: 'auto', disable_parallel_tool_use: true }))).toBe(true);
    expect(turns[0]!.system[0]!.text).toContain('- Each turn, call the tool for the best next action.\n');
  });

  test('AGENT_MULTI_ACTIONS is a switch, on by default, and names anything else', () => {
    expect(modelSettings({}).multiActions).toBe(true);
    expect(modelSettings({ AGENT_MULTI_ACTIONS: 'off' }).multiActions).toBe(false);
    expect(() => modelSettings({ AGENT_MULTI_ACTIONS: 'maybe' })).toThrow(
      'AGENT_MULTI_ACTIONS must be a switch: 1, 0, true, false, on, off, yes or no (got "maybe")',
    );
  });
});
