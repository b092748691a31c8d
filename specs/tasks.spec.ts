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
    if (task.spec.auth_profile) test.use({ storageState: authStatePath(task.spec.auth_profile) });
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
