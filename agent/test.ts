import { loadEnvFile } from './env/env-file';
import { deciderProblem } from './decide/select-decider';
import { env, passOnUnlessSet } from './env/read';
import { BwaInputError } from './task/input-errors';
import type { Provenance, Result, SampleStatus } from './evidence/result-schema';
import { sampleRunsOf, withAgentOptions } from './fixture';
import { sampleDir } from './settings';
import { adHocTask, type AgentTask } from './project/ad-hoc-task';

export type { AgentTask } from './project/ad-hoc-task';
export type { AgentOptions } from './fixture';

/** What `agent.run` gives back: the values, where each came from, and where the evidence lies. */
export interface AgentResult<Values extends Record<string, unknown> = Record<string, unknown>> {
  status: SampleStatus;
  /** Field → value (null when the page did not give it). */
  values: Values;
  /** Field → where the value came from: read from the page (url, element, screenshot at that moment) or stated by the model. */
  provenance: Record<keyof Values & string, Provenance>;
  /** Why the run is not done, when it is not. */
  error: string | null;
  /** The folder of this run's evidence: result.json, action_log.json, screenshots, each hashed as written. */
  evidenceDir: string;
  /** result.json as written. */
  result: Result;
}

export interface BwaAgent {
  /**
   * Works toward the goal on this test's page — the model deciding each step over the page state, or the given
   * recipe replayed — and returns the output fields with their provenance. One run per test: its evidence is one
   * sample of the run (reports/runs/<run_id>/<task>/<sample>/), attached to this test.
   */
  run<Values extends Record<string, unknown> = Record<string, unknown>>(task: AgentTask): Promise<AgentResult<Values>>;
}

// A config without withBwa loads no .env and names no run: the worker does both (withBwa's main process did already).
// Every worker of one Playwright run has the same parent, the runner: one run id for all of them.
loadEnvFile();
passOnUnlessSet('AGENT_RUN_ID', () => `tests_${new Date().toISOString().slice(0, 10).replace(/-/g, '')}_p${process.ppid}`);

/**
 * Playwright's `test` with an `agent` fixture for your own tests:
 *
 *     import { test, expect } from 'bwa/test';
 *     test('pricing', async ({ page, agent }) => {
 *       const { values } = await agent.run({ goal: 'Read the Pro plan price', output: { price: 'number' }, startUrl: 'https://example.com/pricing' });
 *       expect(values.price).toBeGreaterThan(0);
 *     });
 */
export const test = withAgentOptions.extend<{ agent: BwaAgent }>({
  agent: async ({ page, context, agentFailOn, agentActionTimeout, agentDecider, agentDeciders }, use, testInfo) => {
    const runs = sampleRunsOf({ page, context, agentFailOn, agentActionTimeout, agentDecider, agentDeciders }, testInfo);
    let ran = false;
    await use({
      async run<Values extends Record<string, unknown>>(task: AgentTask): Promise<AgentResult<Values>> {
        if (ran)
          throw new Error(
            'agent.run was already called in this test: one run per test (its evidence is one sample) — put both goals in one, or split the test',
          );
        const { loaded, sample } = adHocTask(task, { testFile: testInfo.file, titlePath: testInfo.titlePath.slice(1), currentUrl: page.url() });
        if (deciderProblem(loaded.spec, agentDecider, Boolean(env.ANTHROPIC_API_KEY), false))
          throw new BwaInputError(
            'BWA_NO_DECIDER',
            agentDecider === 'recipe' || !task.recipe
              ? `agent.run needs ${agentDecider === 'recipe' ? 'a recipe (agentDecider is "recipe")' : 'ANTHROPIC_API_KEY (in the environment or .env) for the model to decide, or a recipe: agent.run({ …, recipe: [steps] })'}`
              : 'agent.run with agentDecider "model" needs ANTHROPIC_API_KEY (in the environment or .env)',
          );
        ran = true;
        const result = await runs.run(loaded, sample, { resume: false });
        const values = Object.fromEntries(Object.entries(result.extracted).map(([field, read]) => [field, read.value])) as Values;
        const provenance = Object.fromEntries(
          Object.entries(result.extracted).map(([field, read]) => [field, read.provenance]),
        ) as AgentResult<Values>['provenance'];
        return {
          status: result.status,
          values,
          provenance,
          error: result.error,
          evidenceDir: sampleDir(result.run_id, result.task_id, result.sample_id),
          result,
        };
      },
    });
    await runs.finishUnfinished();
  },
});

export { expect } from '@playwright/test';
