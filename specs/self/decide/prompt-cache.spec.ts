import { expect, test } from '../../../agent/fixture';
import type { RecordedRequest } from '../../../fixtures/model-server';
import { estimateTokens } from '../../../fixtures/model-server';
import { peopleProfileScript } from '../../../fixtures/model-scripts/people-profile';
import type { PersonTruth } from '../../../fixtures/sites/people/truth';
import { bundledTask, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { SITE } from '../helpers/sites';

const model = useScriptedModel({}, { resetEachTest: true });
let truth: Record<string, PersonTruth>;

test.beforeAll(async ({ request }) => {
  truth = (await (await request.get(`${SITE.people}/__truth.json`)).json()).people;
});

const turnsOf = (sampleId: string) => model.server.requests.filter(r => r.kind === 'decider' && r.key.sampleId === sampleId);
const usage = (r: RecordedRequest) => r.response.usage!;

/** Sample ids are unique across the file's tests: a done sample of the same run would be resumed, not run. */
async function runProfile(agent: { run: Function }, sampleId: string, overrides: Record<string, unknown> = {}) {
  const username = sampleId.split('-')[0]!;
  // One call a turn, pinned stated, not read: eight decisions — enough steps to show the cache at work, and under the
  // step-10 summary, which rewrites the cached history.
  model.server.setScript(
    (overrides.task_id as string) ?? 'people_profile',
    sampleId,
    peopleProfileScript(username, { statedPinned: truth[username]!.pinned, oneCallPerTurn: true }),
  );
  return agent.run(bundledTask('people_profile', overrides), sampleOf({ sample_id: sampleId, username }));
}

test('the prefix (tools, task block, sample block, history so far) is written once and read on every later step; only the step part is uncached', async ({
  agent,
}) => {
  const result = await runProfile(agent, 'ada-1');
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  const turns = turnsOf('ada-1');
  expect(turns.length).toBeGreaterThanOrEqual(6);
  expect(usage(turns[0]!).cache_read_input_tokens).toBe(0);
  expect(usage(turns[0]!).cache_creation_input_tokens).toBeGreaterThan(1024);
  for (let i = 1; i < turns.length; i++) {
    const [before, now] = [usage(turns[i - 1]!), usage(turns[i]!)];
    // Everything the previous step cached is read; what is written is only the history entry of the step between.
    expect(now.cache_read_input_tokens).toBe(before.cache_read_input_tokens + before.cache_creation_input_tokens);
    expect(now.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(now.cache_creation_input_tokens).toBeLessThan(200);
    // Uncached: the page state and what changed this step — a fraction of the whole message.
    expect(now.input_tokens).toBeLessThan(estimateTokens(turns[i]!.lastUserText));
  }
  const decide = result.usage.by_purpose!.decide!;
  expect(decide.cache_read_input_tokens).toBe(turns.reduce((sum, t) => sum + usage(t).cache_read_input_tokens, 0));
  expect(
    decide.cache_read_input_tokens / (decide.cache_read_input_tokens + decide.cache_creation_input_tokens + decide.input_tokens),
  ).toBeGreaterThan(0.7);
});

test('the next sample of the task reads tools and task block and writes only its own sample block', async ({ agent }) => {
  await runProfile(agent, 'ada-2');
  await runProfile(agent, 'grace-2');
  const ada = usage(turnsOf('ada-2')[0]!);
  const grace = turnsOf('grace-2');
  const sampleBlock = estimateTokens(grace[0]!.system[1]!.text);
  expect(usage(grace[0]!).cache_read_input_tokens).toBe(ada.cache_creation_input_tokens - estimateTokens(turnsOf('ada-2')[0]!.system[1]!.text));
  // The first decision has no history yet: written is the sample block alone.
  expect(usage(grace[0]!).cache_creation_input_tokens).toBe(sampleBlock);
  expect(usage(grace[1]!).cache_read_input_tokens).toBe(usage(grace[0]!).cache_read_input_tokens + usage(grace[0]!).cache_creation_input_tokens);
});

test('a changed system prompt is a miss: only the tools are read, the task and sample blocks are written again', async ({ agent }) => {
  await runProfile(agent, 'ada-3');
  const changed = 'You are a careful audit agent. Screenshot the profile labelled "profile", then extract each field. Never guess.';
  await runProfile(agent, 'barbara-3', { task_id: 'people_profile_v2', system_prompt: changed });
  const [first, second] = model.server.requests.filter(r => r.kind === 'decider' && r.key.taskId === 'people_profile_v2');
  const adaFirst = turnsOf('ada-3')[0]!;
  expect(first!.system[0]!.text).not.toBe(adaFirst.system[0]!.text);
  const toolsOnly = usage(first!).cache_read_input_tokens;
  expect(toolsOnly, 'the tools are a prefix of their own, read by any task of the run').toBeGreaterThan(0);
  expect(toolsOnly).toBeLessThan(usage(adaFirst).cache_creation_input_tokens - 200);
  expect(usage(first!).cache_creation_input_tokens).toBe(estimateTokens(first!.system[0]!.text) + estimateTokens(first!.system[1]!.text));
  expect(usage(second!).cache_read_input_tokens).toBe(toolsOnly + usage(first!).cache_creation_input_tokens);
});
