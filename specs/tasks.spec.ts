import * as fs from 'node:fs';
import { test } from '../agent/fixture';
import { settings } from '../agent/settings';
import { authStatePath } from '../agent/task/auth-profile';
import { discoveredSamplesFile } from '../agent/task/discovered';
import { loadSuite } from '../agent/task/suite';
import { checkRecipeSteps } from '../agent/recipe/check-steps';

// Runs in every worker: keep it to reading JSON and CSV files.
const suite = loadSuite({ tasksDir: settings.tasksDir, adHocUrl: settings.adHocUrl, discoveredSamplesFile, checkTask: checkRecipeSteps });
const blockers = settings.taskBlockers;

for (const { task, samples, missing, error } of suite) {
  const tag = `@${task.spec.task_id}`;
  test.describe(task.spec.task_id, () => {
    const profile = task.spec.auth_profile;
    // globalSetup signed in (or found an imported state); when it could not, the task is blocked and its samples say why.
    if (profile && fs.existsSync(authStatePath(profile))) test.use({ storageState: authStatePath(profile) });
    if (error) {
      test('cannot run', { tag }, () => {
        throw new Error(error);
      });
      return;
    }
    if (missing) {
      const blocked = blockers[task.spec.task_id];
      test('samples not discovered yet', { tag }, () => {
        if (blocked) throw new Error(blocked);
        test.skip(true, missing);
      });
      return;
    }
    for (const sample of samples) {
      test(sample.sample_id, { tag }, async ({ agent }) => {
        await agent.run(task, sample);
      });
    }
  });
}
