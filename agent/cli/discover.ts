import * as fs from 'node:fs';
import * as path from 'node:path';
import { discoverTask } from '../discover/discover-samples';
import { passOnUnlessSet } from '../env/read';
import { newRunId, settings } from '../settings';
import { BwaInputError } from '../task/input-errors';
import { loadTaskFile, taskFiles } from '../task/load-task';

const USAGE = `bwa discover <task_id> [--force] [--max-items N]

  Browses the task's discover.start_url and writes reports/runs/<AGENT_RUN_ID>/<task_id>/samples.csv.
  A run that already has the file reuses it; --force browses again. AGENT_RUN_ID is created when unset:
  run the samples with the same id so the tests find them.`;

export const discoverCommand = {
  name: 'discover',
  summary: "Write a task's samples by browsing its listing (tasks with a discover block)",
  usage: USAGE,
  async run(args: string[]): Promise<number> {
    const { taskId, force, maxItems } = parseArgs(args);
    const file = path.join(settings.tasksDir, `${taskId}.json`);
    if (!fs.existsSync(file)) throw new BwaInputError('BWA_TASK_MISSING', `${file}: no such task${discoveringTasks()}`);
    passOnUnlessSet('AGENT_RUN_ID', newRunId);
    const report = await discoverTask(loadTaskFile(file), { force, maxItems, log: line => console.log(line) });
    console.log(`\nRun them:  AGENT_RUN_ID=${settings.runId} npx playwright test --project=tasks --grep @${taskId}`);
    return report.complete ? 0 : 1;
  },
};

function parseArgs(args: string[]): { taskId: string; force: boolean; maxItems?: number } {
  let taskId: string | undefined;
  let force = false;
  let maxItems: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--force') force = true;
    else if (arg === '--max-items' || arg.startsWith('--max-items=')) {
      const raw = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[++i];
      maxItems = Number(raw);
      if (!Number.isInteger(maxItems) || maxItems < 1)
        throw new BwaInputError('BWA_USAGE', `--max-items must be a positive integer (got "${raw ?? ''}")\n\n${USAGE}`);
    } else if (arg.startsWith('-')) throw new BwaInputError('BWA_USAGE', `unknown option ${arg}\n\n${USAGE}`);
    else if (taskId) throw new BwaInputError('BWA_USAGE', `one task at a time (got ${taskId} and ${arg})\n\n${USAGE}`);
    else taskId = arg;
  }
  if (!taskId) throw new BwaInputError('BWA_USAGE', `which task?${discoveringTasks()}\n\n${USAGE}`);
  return { taskId, force, maxItems };
}

function discoveringTasks(): string {
  const ids = taskFiles(settings.tasksDir).flatMap(file => {
    try {
      const task = loadTaskFile(file);
      return task.spec.discover ? [task.spec.task_id] : [];
    } catch {
      return [];
    }
  });
  return ids.length ? ` (tasks with a discover block: ${ids.join(', ')})` : ' (no task in the tasks folder has a discover block)';
}
