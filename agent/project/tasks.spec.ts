import * as fs from 'node:fs';
import { test } from '../fixture';
import { deciderProblem } from '../decide/select-decider';
import { checkRecipeSteps } from '../recipe/check-steps';
import { compiledRecipe } from '../recipe/recipe-store';
import { oneLineError } from '../report/one-line-error';
import { env } from '../env/read';
import { settings } from '../settings';
import { authStatePath } from '../task/auth-profile';
import { discoveredSamplesFile } from '../task/discovered';
import type { LoadedTask } from '../task/load-task';
import { loadSuite, type BrokenTask } from '../task/suite';

// Runs in every worker: keep it to reading JSON and CSV files.
const broken: BrokenTask[] = [];
const suite = loadSuite({
  tasksDir: settings.tasksDir,
  adHocUrl: settings.adHocUrl,
  discoveredSamplesFile,
  checkTask: checkRecipeSteps,
  onBroken: task => broken.push(task),
});
const blockers = settings.taskBlockers;

// A task that cannot load is one failing test under its own tag: every other task lists and runs beside it.
for (const { taskId, error } of broken) {
  test.describe(taskId, () => {
    test.describe.configure({ retries: 0 });
    test('cannot load', { tag: `@${taskId}` }, () => {
      throw oneLineError(`${error.code}: ${error.message}`);
    });
  });
}

for (const { task, samples, missing, error } of suite) {
  const tag = `@${task.spec.task_id}`;
  test.describe(task.spec.task_id, () => {
    // What fails every sample before it starts fails the same on a retry: each sample fails once, with its reason.
    const cannotStart = startProblem(task);
    if (error || cannotStart) test.describe.configure({ retries: 0 });
    const profile = task.spec.auth_profile;
    // globalSetup signed in (or found an imported state); when it could not, the task is blocked and its samples say why.
    if (profile && fs.existsSync(authStatePath(profile))) test.use({ storageState: authStatePath(profile) });
    if (error) {
      test('cannot run', { tag }, () => {
        throw oneLineError(error);
      });
      return;
    }
    if (missing) {
      const blocked = blockers[task.spec.task_id];
      test('samples not discovered yet', { tag }, () => {
        if (blocked) throw oneLineError(blocked);
        test.skip(true, missing);
      });
      return;
    }
    for (const sample of samples) {
      if (cannotStart)
        test(sample.sample_id, { tag }, async ({ unstartable }) => {
          await unstartable.fail(task, sample, cannotStart);
        });
      else
        test(sample.sample_id, { tag }, async ({ agent }) => {
          await agent.run(task, sample);
        });
    }
  });
}

/**
 * Why every sample of the task fails before it starts, known now: a server or sign-in globalSetup could not ready,
 * or no decider can run it (AGENT_DECIDER, the default of the agentDecider option, with the key and recipes there are).
 */
function startProblem(task: LoadedTask): string | undefined {
  const blocked = blockers[task.spec.task_id];
  if (blocked) return blocked;
  return deciderProblem(task.spec, settings.decider, Boolean(env.ANTHROPIC_API_KEY), compiledRecipe(task) !== undefined)?.message;
}
