import * as fs from 'node:fs';
import * as path from 'node:path';
import { isUrlAllowed } from '../browser/domains';
import { env } from '../env/read';
import { settings } from '../settings';
import { authStatePath } from '../task/auth-profile';
import { discoveredSamplesFile } from '../task/discovered';
import { BwaInputError } from '../task/input-errors';
import { loadTaskFile, type LoadedTask } from '../task/load-task';
import { fillStartUrl } from '../task/row-template';
import type { Sample } from '../task/samples';
import { withSamples } from '../task/suite';

/** The page `bwa look` opens: a URL as given, or a task's start page for one of its samples. */
export interface LookSubject {
  url: string;
  /** Lifts the lines that name them, as in the task's own samples. */
  keywords: readonly string[];
  /** The sample's row values, which a recipe target names as {{column}}. */
  row?: { values: Readonly<Record<string, string>>; inputColumns: readonly string[] };
  /** Where navigation may go; undefined: anywhere (a URL given alone). */
  allowedDomains?: readonly string[];
  dialogPolicy: 'accept' | 'dismiss';
  /** The task's auth profile's signed-in browser state, when one was saved. */
  storageState?: string;
  /** What the reader should know about how the page was opened. */
  notes: string[];
  /** "task shelf, sample kettle", for the heading. */
  label?: string;
}

const HTTP_URL = /^https?:\/\//i;

export function urlSubject(url: string): LookSubject {
  if (!HTTP_URL.test(url)) throw new BwaInputError('BWA_LOOK_URL', `"${url}" is not an http(s) URL`);
  return { url, keywords: [], dialogPolicy: 'dismiss', notes: [] };
}

/** A task's start URL filled from one of its samples (the first unless named), opened as that sample's would be. */
export function taskSubject(taskId: string, sampleId?: string): LookSubject {
  const task = loadTask(taskId);
  const sample = pickSample(task, sampleId);
  const { spec } = task;
  const url = fillStartUrl(spec.start_url, sample);
  if (!isUrlAllowed(url, spec.allowed_domains))
    throw new BwaInputError(
      'BWA_LOOK_URL',
      `task ${spec.task_id}, sample ${sample.sample_id}: its start page ${url} is outside the task's allowed_domains (${spec.allowed_domains.join(', ')})`,
    );
  const notes: string[] = [];
  let storageState: string | undefined;
  if (spec.auth_profile) {
    const state = authStatePath(spec.auth_profile);
    if (fs.existsSync(state)) {
      storageState = state;
      notes.push(`signed in with auth_profile "${spec.auth_profile}" (${path.relative(process.cwd(), state) || state})`);
    } else
      notes.push(
        `auth_profile "${spec.auth_profile}" has no saved sign-in at ${state} (a run saves one; or npx bwa auth import ${spec.auth_profile} <file>): the page is seen signed out`,
      );
  }
  return {
    url,
    keywords: spec.keywords,
    row: { values: sample.row, inputColumns: Object.keys(spec.input_schema) },
    allowedDomains: spec.allowed_domains,
    dialogPolicy: spec.dialog_policy,
    storageState,
    notes,
    label: `task ${spec.task_id}, sample ${sample.sample_id}`,
  };
}

function loadTask(taskId: string): LoadedTask {
  const file = path.join(settings.tasksDir, `${taskId}.json`);
  if (!fs.existsSync(file)) throw new BwaInputError('BWA_TASK_MISSING', `${file}: no such task`);
  return loadTaskFile(file);
}

function pickSample(task: LoadedTask, sampleId: string | undefined): Sample {
  const found = withSamples(task, {
    tasksDir: path.dirname(task.file),
    adHocUrl: settings.adHocUrl,
    discoveredSamplesFile: env.AGENT_RUN_ID ? discoveredSamplesFile : undefined,
  });
  const problem = found.error ?? found.missing;
  if (problem) throw new BwaInputError('BWA_LOOK_SAMPLE', problem);
  const sample = sampleId === undefined ? found.samples[0] : found.samples.find(s => s.sample_id === sampleId);
  if (sample) return sample;
  const ids = found.samples.map(s => s.sample_id);
  throw new BwaInputError(
    'BWA_LOOK_SAMPLE',
    sampleId === undefined
      ? `task ${task.spec.task_id} has no samples`
      : `task ${task.spec.task_id} has no sample "${sampleId}" (samples: ${ids.slice(0, 10).join(', ')}${ids.length > 10 ? `, … ${ids.length - 10} more` : ''})`,
  );
}
