import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverTask } from '../discover/discover-samples';
import { wholeNumberText } from '../env/kinds';
import { passOnUnlessSet } from '../env/read';
import { newRunId, settings } from '../settings';
import { BwaInputError } from '../task/input-errors';
import { loadTaskFile, taskFiles } from '../task/load-task';
import { defineCommand } from './command';
import { listed } from './listing';
import { BWA_PROJECTS } from '../project/names';

export const discoverCommand = defineCommand({
  ...listed('discover'),
  about: [
    "Browses the task's discover.start_url and writes reports/runs/<AGENT_RUN_ID>/<task_id>/samples.csv.",
    'A run that already has the file reuses it; --force browses again. AGENT_RUN_ID is created when unset:',
    'run the samples with the same id so the tests find them.',
  ].join('\n'),
  options: {
    force: { type: 'boolean', help: 'browse again, even when the run already has the samples' },
    'max-items': { type: 'string', placeholder: 'n', value: wholeNumberText(1), help: "at most n samples (below the task's discover.max_items)" },
  },
  positionals: [{ name: 'task_id', hint: () => discoveringTasks() }],
  async run({ args: { task_id: taskId }, options: { force, 'max-items': maxItems } }) {
    const file = path.join(settings.tasksDir, `${taskId}.json`);
    if (!fs.existsSync(file)) throw new BwaInputError('BWA_TASK_MISSING', `${file}: no such task ${discoveringTasks()}`);
    passOnUnlessSet('AGENT_RUN_ID', newRunId);
    const report = await discoverTask(loadTaskFile(file), { force, maxItems, log: line => console.log(line) });
    console.log(`\nRun them:  AGENT_RUN_ID=${settings.runId} npx playwright test --project=${BWA_PROJECTS.tasks} --grep @${taskId}`);
    return report.complete ? 0 : 1;
  },
});

function discoveringTasks(): string {
  const ids = taskFiles(settings.tasksDir).flatMap(file => {
    try {
      const task = loadTaskFile(file);
      return task.spec.discover ? [task.spec.task_id] : [];
    } catch {
      return [];
    }
  });
  return ids.length ? `(tasks with a discover block: ${ids.join(', ')})` : '(no task in the tasks folder has a discover block)';
}
