import * as fs from 'node:fs';
import * as path from 'node:path';
import { BwaInputError } from './errors';
import { loadTaskFile, taskFiles, type LoadedTask } from './load-task';
import { loadSamplesCsv, type Sample } from './samples';

export interface TaskWithSamples {
  task: LoadedTask;
  samples: Sample[];
  /** Why there are no samples (shown as a skipped placeholder test instead of a crash). */
  missing?: string;
}

export interface SuiteOptions {
  tasksDir: string;
  adHocUrl?: string;
  /** Discovered samples for tasks with a discover block, when a discovery already ran. */
  discoveredSamplesFile?: (taskId: string) => string | undefined;
}

export function loadSuite(options: SuiteOptions): TaskWithSamples[] {
  return taskFiles(options.tasksDir).map(file => {
    const task = loadTaskFile(file);
    if (options.adHocUrl) return { task, samples: [adHocSample(options.adHocUrl)] };
    const discovered = task.spec.discover ? options.discoveredSamplesFile?.(task.spec.task_id) : undefined;
    if (task.spec.discover && !discovered)
      return {
        task,
        samples: [],
        missing: `task ${task.spec.task_id} discovers its samples by browsing, in globalSetup (which --list, UI mode and editors skip): run \`npx playwright test --grep @${task.spec.task_id}\`, or run \`npx bwa discover ${task.spec.task_id}\` first and use the AGENT_RUN_ID it prints`,
      };
    const csv = discovered ?? path.join(options.tasksDir, 'inputs', `${task.spec.task_id}.csv`);
    if (!fs.existsSync(csv)) throw new BwaInputError('BWA_CSV_MISSING', `${csv}: not found (samples for task ${task.spec.task_id}; set AGENT_URL=<url> for one ad-hoc sample)`);
    return { task, samples: loadSamplesCsv(task.spec, csv) };
  });
}

export function adHocSample(url: string): Sample {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BwaInputError('BWA_AGENT_URL', `AGENT_URL: "${url}" is not a URL`);
  }
  const slug = `${parsed.host}${parsed.pathname}`.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._-]+|_+$/g, '').slice(0, 100) || 'adhoc';
  return { sample_id: slug, row: { sample_id: slug, url }, line: 0, source: 'AGENT_URL' };
}
