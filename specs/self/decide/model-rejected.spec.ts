import * as path from 'node:path';
import { expect, test } from '../../../agent/fixture';
import { ModelRejections } from '../../../agent/setup/start-failures';
import { startModelServer } from '../../../fixtures/model-server';
import { peopleProfileScript } from '../../../fixtures/model-scripts/people-profile';
import { bundledTask, readRunFile, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { setEnv, withEnv } from '../helpers/env';
import { tempDir } from '../helpers/temp';

/**
 * A configuration the API refuses (400 invalid_request_error, 401, 404) on the first request of a run stops the
 * run's other model-decided samples before they start; each is still in the evidence, not started, with the reason.
 */

const model = useScriptedModel({}, { resetEachTest: true });

/** A fresh invocation per test: what one test stops, the next starts anew (as a resumed run does). */
let restoreEnv: () => void;
test.beforeEach(({}, testInfo) => {
  restoreEnv = setEnv({
    AGENT_INVOCATION_ID: `rejected-${testInfo.testId}`,
    AGENT_MODEL: process.env.AGENT_MODEL,
    AGENT_EFFORT: process.env.AGENT_EFFORT,
  });
  for (const id of ['first', 'second', 'third']) model.server.setScript('people_profile', id, peopleProfileScript('ada'));
});
test.afterEach(() => restoreEnv());

const run = (agent: { run: Function }, id: string) => agent.run(bundledTask('people_profile'), sampleOf({ sample_id: id, username: 'ada' }));
const resultOf = (id: string) => JSON.parse(readRunFile('people_profile', id, 'result.json'));

async function expectRunStopped(agent: { run: Function }, rejected: RegExp, server = model.server): Promise<void> {
  await expect(run(agent, 'first')).rejects.toThrow(/first: failed — the API rejected the request: /);
  const first = resultOf('first');
  expect(first.error).toMatch(rejected);
  expect(first.error).not.toContain('could not be reached');
  // The API answered: no retry of a refused request.
  expect(server.requests.filter(r => r.key.sampleId === 'first')).toHaveLength(1);
  for (const id of ['second', 'third']) {
    await expect(run(agent, id)).rejects.toThrow(
      new RegExp(`${id}: failed — not started: the API rejected the model configuration on the first request of this run`),
    );
    const result = resultOf(id);
    expect(result).toMatchObject({ status: 'failed', steps: 0 });
    expect(result.error).toMatch(rejected);
    expect(result.error).toContain('resume with the same AGENT_RUN_ID');
    expect(server.requests.filter(r => r.key.sampleId === id)).toEqual([]);
  }
}

test('a model id the API does not serve (404): the message names AGENT_MODEL, and the other samples are not started', async ({ agent }) => {
  process.env.AGENT_MODEL = 'claude-sonnet-9';
  await expectRunStopped(
    agent,
    /model claude-sonnet-9: the API does not serve this model \(404 model: claude-sonnet-9\) — set AGENT_MODEL to a model id it serves/,
  );
});

test('an effort level the model does not take (400 invalid_request_error): the message names AGENT_EFFORT', async ({ agent }) => {
  // A model bwa's table does not hold gets the effort set by hand; this one takes no xhigh.
  process.env.AGENT_MODEL = 'claude-opus-4-6';
  process.env.AGENT_EFFORT = 'xhigh';
  await expectRunStopped(
    agent,
    /model claude-opus-4-6: the API rejected the request \(400 output_config\.effort: "xhigh" is not supported for this model .*\) — change AGENT_EFFORT/,
  );
});

test('a key the API refuses (401): the message names ANTHROPIC_API_KEY', async ({ agent }) => {
  const strict = await startModelServer({ apiKey: 'the-real-key' });
  try {
    await withEnv({ ANTHROPIC_BASE_URL: strict.url }, () =>
      expectRunStopped(agent, /the API rejected the key \(401 invalid x-api-key\) — set a valid ANTHROPIC_API_KEY/, strict),
    );
  } finally {
    await strict.close();
  }
});

test('once the API has accepted a request of the invocation, a later refusal stops nothing', async () => {
  const runDir = path.join(tempDir(), 'run');
  const rejections = new ModelRejections(runDir, 'once-accepted');
  await rejections.record(undefined);
  await rejections.record('model m: the API rejected the request (400 prompt is too long)');
  expect(rejections.blocked()).toBeUndefined();
  const fresh = new ModelRejections(runDir, 'another-invocation');
  await fresh.record('model m: the API does not serve this model (404 model: m)');
  expect(fresh.blocked()).toMatch(
    /^not started: the API rejected the model configuration on the first request of this run \(model m: the API does not serve/,
  );
});
