import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTaskFile, type LoadedTask } from '../../agent/task/load-task';
import { tempDirFor } from '../lib/temp';

/** The bench's task file, written to a folder of its own, with bwa pointed at the scripted model server: the loaded task. */
export function scriptedTask(spec: { task_id: string } & Record<string, unknown>, modelUrl: string): LoadedTask {
  const tasksDir = tempDirFor(`${spec.task_id}-tasks`);
  const file = path.join(tasksDir, `${spec.task_id}.json`);
  fs.writeFileSync(file, JSON.stringify(spec, null, 2));
  Object.assign(process.env, {
    ANTHROPIC_API_KEY: 'bench-key',
    ANTHROPIC_BASE_URL: modelUrl,
    AGENT_DECIDER: 'model',
    AGENT_MODEL_RETRIES: '0',
    AGENT_TASKS_DIR: tasksDir,
    AGENT_REPORTS_DIR: tempDirFor(`${spec.task_id}-reports`),
  });
  return loadTaskFile(file);
}
