import * as fs from 'node:fs';
import * as path from 'node:path';
import { BwaInputError } from './input-errors';
import { loadTaskFile, taskFiles, type LoadedTask } from './load-task';
import { loadSamplesCsv, type Sample } from './samples';
import type { TaskSpec } from './schema';

export interface TaskWithSamples {
  task: LoadedTask;
  samples: Sample[];
  /** Why there are no samples (shown as a skipped placeholder test instead of a crash). */
  missing?: string;
  /** Why this task cannot run as asked (e.g. AGENT_URL on a task without {{url}}): one failing test says so. */
  error?: string;
}

export interface SuiteOptions {
  tasksDir: string;
  adHocUrl?: string;
  /** Discovered samples for tasks with a discover block, when a discovery already ran. */
  discoveredSamplesFile?: (taskId: string) => string | undefined;
  /** Further checks of a loaded task that need more than the task schema (recipe steps against the action schemas). */
  checkTask?: (task: LoadedTask) => void;
  /** Told each task that cannot load (its spec, recipe or samples are wrong), which is then left out; without it, that error is thrown. */
  onBroken?: (broken: BrokenTask) => void;
}

/** A task file that cannot load, and why (naming its file, line and key). */
export interface BrokenTask {
  file: string;
  /** The task's id as its file names it (the spec's task_id must equal it; a spec that cannot be read has no other). */
  taskId: string;
  error: BwaInputError;
  /** The spec, when it loaded and its recipe steps or samples did not (more can be said about it). */
  task?: LoadedTask;
}

export function loadSuite(options: SuiteOptions): TaskWithSamples[] {
  return taskFiles(options.tasksDir).flatMap(file => {
    let task: LoadedTask | undefined;
    try {
      task = loadTaskFile(file);
      return [withSamples(task, options)];
    } catch (error) {
      if (!options.onBroken || !(error instanceof BwaInputError)) throw error;
      options.onBroken({ file, taskId: path.basename(file, '.json'), error, ...(task ? { task } : {}) });
      return [];
    }
  });
}

/** One task's samples as a run would take them (AGENT_URL, a discovery's CSV, or tasks/inputs/<task_id>.csv). */
export function withSamples(task: LoadedTask, options: SuiteOptions): TaskWithSamples {
  options.checkTask?.(task);
  if (options.adHocUrl) {
    if (!usesUrlColumn(task.spec.start_url))
      return {
        task,
        samples: [],
        error: `AGENT_URL is set, but task ${task.spec.task_id} cannot use it: its start_url (${task.spec.start_url}) has no {{url}} — run it without AGENT_URL (samples from tasks/inputs/${task.spec.task_id}.csv), or select a task whose start_url is "{{url}}"`,
      };
    return { task, samples: [adHocSample(options.adHocUrl)] };
  }
  const discovered = task.spec.discover ? options.discoveredSamplesFile?.(task.spec.task_id) : undefined;
  if (task.spec.discover && !discovered)
    return {
      task,
      samples: [],
      missing: `task ${task.spec.task_id} discovers its samples by browsing, in globalSetup (which --list, UI mode and editors skip): run \`npx playwright test --grep @${task.spec.task_id}\`, or run \`npx bwa discover ${task.spec.task_id}\` first and use the AGENT_RUN_ID it prints`,
    };
  const csv = discovered ?? path.join(options.tasksDir, 'inputs', `${task.spec.task_id}.csv`);
  if (!fs.existsSync(csv))
    throw new BwaInputError('BWA_CSV_MISSING', `${csv}: not found (samples for task ${task.spec.task_id}) — ${csvHint(task.spec)}`);
  return { task, samples: loadSamplesCsv(task.spec, csv) };
}

export function adHocSample(url: string): Sample {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BwaInputError('BWA_AGENT_URL', `AGENT_URL: "${url}" is not a URL`);
  }
  const slug =
    `${parsed.host}${parsed.pathname}`
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._-]+|_+$/g, '')
      .slice(0, 100) || 'adhoc';
  return { sample_id: slug, row: { sample_id: slug, url }, line: 0, source: 'AGENT_URL' };
}

const URL_COLUMN = /\{\{\s*url\s*\}\}/;

function usesUrlColumn(startUrl: string): boolean {
  return URL_COLUMN.test(startUrl);
}

/** What to do about a missing samples CSV, for this task: AGENT_URL only where its start_url takes {{url}}. */
function csvHint(spec: TaskSpec): string {
  const columns = ['sample_id', ...Object.keys(spec.input_schema)].join(',');
  const write = `write it with the header "${columns}" and one row per sample`;
  return usesUrlColumn(spec.start_url) ? `${write}, or set AGENT_URL=<url> for one ad-hoc sample` : write;
}
