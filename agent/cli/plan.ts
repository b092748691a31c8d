import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { ModelCallError, ModelClient } from '../decide/model-client';
import { modelSettings } from '../decide/model-settings';
import { discoverTask } from '../discover/discover-samples';
import { env, passOnUnlessSet } from '../env/read';
import { planTask } from '../plan/planner';
import { describePlan, writePlan } from '../plan/write-plan';
import { newRunId, settings } from '../settings';
import { BwaInputError } from '../task/input-errors';
import { loadTaskFile } from '../task/load-task';
import { defineCommand, UsageError } from './command';
import { listed } from './listing';
import { BWA_PROJECTS } from '../project/names';

export const planCommand = defineCommand({
  ...listed('plan'),
  about: [
    'Asks Claude to turn the request into tasks/<task_id>.json and tasks/inputs/<task_id>.csv (or a discover',
    'block, when the items must be found by browsing), checks them like any task, and prints them for review.',
    'Quote the request, e.g. bwa plan "Go to the org\'s members page and, for every member, screenshot their profile',
    'and extract name, company and followers"',
  ].join('\n'),
  options: {
    force: { type: 'boolean', help: 'replace an existing task of the same id' },
    run: {
      type: 'boolean',
      help: `go straight on: discover the samples if needed, then npx playwright test --project=${BWA_PROJECTS.tasks} --grep @<task_id>`,
    },
  },
  positionals: [{ name: 'request', rest: true }],
  async run({ args: { request }, options: { force, run } }) {
    const sentence = request.join(' ').trim();
    if (!sentence) throw new UsageError('say what to do, in plain English');
    if (!env.ANTHROPIC_API_KEY)
      throw new BwaInputError(
        'BWA_NO_API_KEY',
        'bwa plan asks Claude to write the task, so it needs ANTHROPIC_API_KEY (in the environment or .env).\nWithout a key, start the task with `npx bwa init <task_id> --url "https://…/{{column}}" --field <name>:<type>` (README.md#your-first-task-on-your-own-site), fill in what it names, and check it with `npx bwa validate`.',
      );
    let outcome;
    try {
      outcome = await planTask(sentence, new ModelClient(modelSettings()));
    } catch (error) {
      if (error instanceof ModelCallError) throw new BwaInputError(error.code, error.message);
      throw error;
    }
    const written = writePlan(outcome.plan, settings.tasksDir, { force });
    console.log(describePlan(outcome.plan, written, outcome.attempts));
    if (!run) return 0;
    const id = outcome.plan.spec.task_id;
    passOnUnlessSet('AGENT_RUN_ID', newRunId);
    if (outcome.plan.needsDiscovery) {
      const report = await discoverTask(loadTaskFile(written.taskFile), { log: line => console.log(line) });
      if (!report.complete) console.log('Discovery stopped early; running the samples it found.');
    }
    return runTests(id);
  },
});

/** The same command a user would type; AGENT_RUN_ID is passed on so the run finds the discovered samples. */
function runTests(taskId: string): Promise<number> {
  const cli = path.join(path.dirname(require.resolve('@playwright/test/package.json')), 'cli.js');
  const args = ['test', `--project=${BWA_PROJECTS.tasks}`, '--grep', `@${taskId}(?![\\w-])`];
  console.log(`\nnpx playwright ${args.join(' ')}   (AGENT_RUN_ID=${settings.runId})`);
  const child = spawn(process.execPath, [cli, ...args], { stdio: 'inherit' });
  return new Promise(resolve => child.on('close', code => resolve(code ?? 1)));
}
