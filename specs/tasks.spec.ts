import * as fs from 'node:fs';
import { test } from '../agent/fixture';
import { authStatePath } from '../agent/task/auth';
import { discoveredSamplesFile } from '../agent/task/discovered';
import { loadSuite } from '../agent/task/suite';
import { settings } from '../agent/settings';

// Runs in every worker: keep it to reading JSON and CSV files.
const suite = loadSuite({ tasksDir: settings.tasksDir, adHocUrl: settings.adHocUrl, discoveredSamplesFile });

for (const { task, samples, missing } of suite) {
  const tag = `@${task.spec.task_id}`;
  test.describe(task.spec.task_id, () => {
    if (task.spec.auth_profile) {
      const stateFile = authStatePath(task.spec.auth_profile);
      test.use({ storageState: stateFile });
      // Runs before the context is made from the file: one clear message instead of a bare ENOENT.
      test.beforeEach(() => {
        if (!fs.existsSync(stateFile)) throw new Error(`auth_profile "${task.spec.auth_profile}": ${stateFile} does not exist — the setup project signs in and writes it (run without --no-deps, with the profile's SECRET_* credentials in .env)`);
      });
    }
    if (missing) {
      test('samples not discovered yet', { tag }, () => test.skip(true, missing));
      return;
    }
    for (const sample of samples) {
      test(sample.sample_id, { tag }, async ({ agent }) => {
        await agent.run(task, sample);
      });
    }
  });
}
