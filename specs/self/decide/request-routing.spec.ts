import { expect, test } from '../../../agent/fixture';
import { ModelClient } from '../../../agent/decide/model-client';
import { modelSettings } from '../../../agent/decide/model-settings';
import { StepSummarizer } from '../../../agent/decide/summaries';
import type { HistoryEntry } from '../../../agent/decide/types';
import { judgeSamples } from '../../../agent/judge/judge-batch';
import { JUDGE_SAMPLE_ID } from '../../../agent/judge/judge-prompt';
import { PLANNER_TASK_ID } from '../../../agent/plan/plan-prompt';
import { planTask } from '../../../agent/plan/planner';
import type { RecordedRequest } from '../../../fixtures/model-server';
import { peopleProfileScript } from '../../../fixtures/model-scripts/people-profile';
import { plannerScript, TWO_PROFILES_REQUEST, twoProfilesPlan } from '../../../fixtures/model-scripts/planner';
import { bundledTask, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { SITE } from '../helpers/sites';

const model = useScriptedModel({ AGENT_MEMORY_DISTILL: 'on' });

test.beforeAll(async () => {
  // Memory distillation on: its request is one of the kinds checked here.
});

/** A line of ours that names a request's task, sample or attempt: what used to route requests through the prompt. */
const ROUTING_LINE = /^\s*(?:task_id|sample_id|attempt)\s*:/m;

function promptOf(request: RecordedRequest): string {
  return [...request.system.map(block => block.text), request.lastUserText].join('\n');
}

function step(n: number): HistoryEntry {
  return {
    step: n,
    action: { name: 'click', args: { target: `e${n}` } },
    result: { success: true, description: `Clicked item ${n}` },
    url: `${SITE.people}/people/ada`,
  };
}

test('every kind of model request names its task, sample and attempt in headers, and its prompt carries no routing line', async ({ agent }) => {
  const task = bundledTask('people_profile', {
    judgment_required: true,
    judgment_question: 'Is this person widely followed?',
    judgment_output_schema: { answer: 'yes | no' },
  });
  const taskId = task.spec.task_id;
  const script = peopleProfileScript('ada', { judgments: [{ answer: 'yes' }] });
  model.server.setScript(taskId, 'ada', {
    ...script,
    text: [
      { contains: 'navigation tips', answer: '- Open the profile page and read its stats.' },
      { contains: 'Summarize these browser-agent steps', answer: 'FOUND: items\nGAPS: none\nNEXT: done' },
    ],
  });
  model.server.setScript(taskId, JUDGE_SAMPLE_ID, {
    text: [{ contains: 'Judge these', answer: JSON.stringify({ ada: { judgment: { answer: 'yes' }, fields: {} } }) }],
  });
  model.server.setDefaultScript(PLANNER_TASK_ID, plannerScript(twoProfilesPlan()));

  // A model-decided sample: its decisions and the memory distillation after it.
  const result = await agent.run(task, sampleOf({ sample_id: 'ada', username: 'ada' }));
  expect(result.status).toBe('done');
  // The side requests of a sample, and the requests that serve no single sample, through the same client.
  const client = new ModelClient(modelSettings());
  const route = { taskId, sampleId: 'ada', attempt: 0 };
  const signal = AbortSignal.timeout(30_000);
  const summarizer = new StepSummarizer(client, task.spec.goal, () => {}, route);
  await summarizer.update(
    10,
    Array.from({ length: 9 }, (_, i) => step(i + 2)),
    signal,
  );
  expect(summarizer.shown).toEqual(['Steps 2-5:\nFOUND: items\nGAPS: none\nNEXT: done']);
  expect((await judgeSamples(client, task.spec, [result])).judgments.get('ada')?.judgment).toEqual({ answer: 'yes' });
  expect((await planTask(TWO_PROFILES_REQUEST, client)).attempts).toBe(1);
  expect(model.server.errors).toEqual([]);

  for (const sent of model.server.requests) {
    // One user message: the system blocks and that message are the whole prompt.
    expect(sent.messagesCount).toBe(1);
    expect(promptOf(sent), `${sent.kind} request of ${JSON.stringify(sent.key)}`).not.toMatch(ROUTING_LINE);
    expect(sent.response.status).toBe(200);
  }
  // Each request's key is what its headers said.
  const keysOf = (prompt: RegExp) => model.server.requests.filter(r => prompt.test(promptOf(r))).map(r => r.key);
  const sampleKey = { taskId, sampleId: 'ada', attempt: '0' };
  const decisions = keysOf(/## Current page state/);
  expect(decisions.length).toBeGreaterThanOrEqual(3);
  expect(decisions).toEqual(decisions.map(() => sampleKey));
  expect(keysOf(/navigation tips/)).toEqual([sampleKey]);
  // The one asked above, and the run's own when its script passes step 10 (people_profile reads its pinned list too).
  const summaries = keysOf(/Summarize these browser-agent steps/);
  expect(summaries.length).toBeGreaterThanOrEqual(1);
  expect(summaries).toEqual(summaries.map(() => sampleKey));
  expect(keysOf(/Judge these 1 samples/)).toEqual([{ taskId, sampleId: JUDGE_SAMPLE_ID }]);
  expect(keysOf(/plain-English request into a bwa task/)).toEqual([{ taskId: PLANNER_TASK_ID, sampleId: expect.stringMatching(/^[0-9a-f]{12}$/) }]);
  expect(model.server.requests).toHaveLength(decisions.length + summaries.length + 3);
});
