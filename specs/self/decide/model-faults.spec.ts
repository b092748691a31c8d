import { expect, test } from '../../../agent/fixture';
import { peopleProfileScript } from '../../../fixtures/model-scripts/people-profile';
import type { PersonTruth } from '../../../fixtures/sites/people/truth';
import { bundledTask, readRunFile, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { SITE } from '../helpers/sites';

const model = useScriptedModel({ AGENT_MODEL_TIMEOUT_MS: '1500' }, { resetEachTest: true });
let ada: PersonTruth;

test.beforeAll(async ({ request }) => {
  ada = (await (await request.get(`${SITE.people}/__truth.json`)).json()).people.ada;
});
test.afterEach(() => {
  delete process.env.AGENT_FALLBACK_MODEL;
});

/** The ada script, one call a turn, with a fault attached to decider turn `turn` (0 = the first decision). */
function withFault(turn: number, fault: Record<string, unknown>) {
  const script = peopleProfileScript('ada', { oneCallPerTurn: true });
  const steps = script.steps as Array<Record<string, unknown>>;
  steps[turn] = { ...steps[turn], fault };
  return script;
}

const run = (agent: { run: Function }, sampleId: string) =>
  agent.run(bundledTask('people_profile'), sampleOf({ sample_id: sampleId, username: 'ada' }));
const turnRequests = (sampleId: string) => model.server.requests.filter(r => r.kind === 'decider' && r.key.sampleId === sampleId);

for (const [name, fault] of [
  ['429 with retry-after', { kind: '429', retry_after_ms: 50 }],
  ['529 overloaded', { kind: '529', retry_after_ms: 50 }],
  ['500 api error', { kind: '500', retry_after_ms: 50 }],
  ['a reset connection', { kind: 'reset' }],
  // Far past the 1.5 s client timeout: the client and this server share one process, which a loaded machine can
  // stall for seconds, and the answer must not be sent before the client's abort is seen. (The server stops
  // waiting as soon as the client closes the connection.)
  ['a slow answer past the client timeout', { kind: 'slow', delay_ms: 15_000 }],
] as const) {
  test(`${name} is absorbed by the SDK's retries`, async ({ agent }) => {
    const id = `ada-${fault.kind}`;
    model.server.setScript('people_profile', id, withFault(2, fault));
    const result = await agent.run(bundledTask('people_profile'), sampleOf({ sample_id: id, username: 'ada' }));
    expect(model.server.errors).toEqual([]);
    expect(result.status).toBe('done');
    expect(result.extracted.followers!.value).toBe(ada.followers);
    // The faulted turn was asked twice (the SDK's retry) and the script did not skip a step.
    const recorded = turnRequests(id);
    expect(recorded.filter(r => r.response.faults).length).toBe(1);
    // One request per decision the run made (its steps but the loop's own opening goto), plus the faulted one.
    expect(recorded.length).toBe(result.steps - 1 + 1);
    // Every answered decision is counted once (the faulted request never was); the run memory's and the step
    // summary's calls are their own.
    expect(result.usage.by_purpose?.decide?.calls).toBe(recorded.length - 1);
    const auxiliary = (result.usage.by_purpose?.memory?.calls ?? 0) + (result.usage.by_purpose?.summary?.calls ?? 0);
    expect(result.usage.model_calls).toBe(recorded.length - 1 + auxiliary);
  });
}

test('malformed tool input becomes a failed step the model sees, and the run goes on', async ({ agent }) => {
  model.server.setScript('people_profile', 'ada-malformed', withFault(1, { kind: 'malformed' }));
  const result = await run(agent, 'ada-malformed');
  expect(result.status).toBe('done');
  const log = JSON.parse(readRunFile('people_profile', 'ada-malformed', 'action_log.json'));
  const failed = log.find((e: { outcome: { success: boolean } }) => !e.outcome.success);
  expect(failed.outcome.error).toMatch(/Invalid arguments for \w+/);
  expect(turnRequests('ada-malformed').some(r => r.lastUserText.includes('FAILED: Invalid arguments'))).toBe(true);
});

test('a text-only answer is re-asked once and the run goes on', async ({ agent }) => {
  model.server.setScript('people_profile', 'ada-text', withFault(1, { kind: 'text_only' }));
  const result = await run(agent, 'ada-text');
  expect(result.status).toBe('done');
  expect(turnRequests('ada-text').some(r => r.lastUserText.includes('Your previous answer contained no tool call'))).toBe(true);
});

test('a primary model that keeps failing hands over to AGENT_FALLBACK_MODEL, and the switch is recorded', async ({ agent }) => {
  process.env.AGENT_FALLBACK_MODEL = 'claude-opus-5-5';
  model.server.setScript('people_profile', 'ada-fallback', withFault(3, { kind: '500', times: 50, model: 'claude-sonnet-5-5', retry_after_ms: 10 }));
  const result = await run(agent, 'ada-fallback');
  expect(result.status).toBe('done');
  expect(result.notes.join('\n')).toContain('primary model claude-sonnet-5-5 failed; fallback claude-opus-5-5 answered');
  const fallbackTurns = turnRequests('ada-fallback').filter(r => r.model === 'claude-opus-5-5');
  expect(fallbackTurns.length).toBeGreaterThan(0);
  // Shaped for the fallback's own rules: no forced tool choice either.
  expect(fallbackTurns.every(r => (r.toolChoice as { type: string }).type === 'auto')).toBe(true);
});

test('a model outage after data was collected ends as partial_success with the data kept', async ({ agent }) => {
  model.server.setScript('people_profile', 'ada-outage', withFault(4, { kind: '529', times: 500, retry_after_ms: 10 }));
  const result = await run(agent, 'ada-outage');
  expect(result.status).toBe('partial_success');
  expect(result.error).toMatch(/the model could not be reached: model claude-sonnet-5-5: overloaded \(529\) after retries/);
  expect(result.extracted.display_name!.value).toBe(ada.display_name);
  expect(result.notes.join('\n')).toMatch(/final consolidation failed/);
  const checkpoint = JSON.parse(readRunFile('people_profile', 'ada-outage', 'checkpoint.json'));
  expect(checkpoint.status).toBe('partial_success');
  expect(checkpoint.accumulated_data.display_name).toBe(ada.display_name);
});

test('a model outage before any data ends as failed, with result, checkpoint and log written', async ({ agent }) => {
  model.server.setScript('people_profile', 'ada-down', withFault(0, { kind: '500', times: 500, retry_after_ms: 10 }));
  await expect(run(agent, 'ada-down')).rejects.toThrow(/ada-down: failed — the model could not be reached/);
  expect(JSON.parse(readRunFile('people_profile', 'ada-down', 'result.json')).status).toBe('failed');
  expect(JSON.parse(readRunFile('people_profile', 'ada-down', 'checkpoint.json')).status).toBe('failed');
  expect(JSON.parse(readRunFile('people_profile', 'ada-down', 'action_log.json'))[0].action.name).toBe('goto');
});

test('a model that answers without a tool call twice: one corrective turn, then the sample ends with a clear error', async ({ agent }) => {
  model.server.setScript('people_profile', 'ada-mute', withFault(0, { kind: 'text_only', times: 2 }));
  await expect(run(agent, 'ada-mute')).rejects.toThrow(
    /ada-mute: failed — the model gave no usable answer after a corrective turn: model claude-sonnet-5-5 gave no usable answer twice: its answer contained no tool call \(stop_reason end_turn\)/,
  );
  const turns = turnRequests('ada-mute');
  expect(turns).toHaveLength(2);
  expect(turns[1]!.lastUserText).toContain('Your previous answer contained no tool call. Answer with a tool call only.');
  const result = JSON.parse(readRunFile('people_profile', 'ada-mute', 'result.json'));
  expect(result.usage.by_purpose.decide.calls).toBe(2);
});

test('on the last step the tools stay those of every turn; a call other than done or fail gets one corrective turn', async ({ agent }) => {
  const task = bundledTask('people_profile', { max_steps: 3, required_fields: [] });
  model.server.setScript('people_profile', 'ada-last', {
    steps: [
      { tool: 'screenshot', args: { label: 'profile' } },
      { tool: 'click', target: { text: 'Profile stats' } },
      { tool: 'done', args: { extracted: { display_name: ada.display_name } } },
    ],
  });
  const result = await agent.run(task, sampleOf({ sample_id: 'ada-last', username: 'ada' }));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  const turns = turnRequests('ada-last');
  expect(turns).toHaveLength(3);
  expect(turns.every(t => JSON.stringify(t.tools) === JSON.stringify(turns[0]!.tools))).toBe(true);
  expect(turns[0]!.tools).toContain('click');
  expect(turns[1]!.lastUserText).toContain('LAST STEP: only done or fail are available now.');
  expect(turns[2]!.lastUserText).toContain(
    'Your previous answer called click, but only done or fail are available now. Answer with a tool call only (done or fail).',
  );
  const log = JSON.parse(readRunFile('people_profile', 'ada-last', 'action_log.json')) as Array<{ action: { name: string } }>;
  expect(log.map(e => e.action.name)).toEqual(['goto', 'screenshot', 'done']);
});
