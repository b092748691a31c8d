import * as path from 'node:path';
import { Result } from '../evidence/result-schema';
import { readJsonIfExists } from '../fs/atomic';
import { RESULT_FILE } from '../loop/recorder';
import { stableHash } from '../task/stable-json';
import type { LoadedTask } from '../task/load-task';
import { DISCOVERY_COLUMNS, type Sample } from '../task/samples';

/** What a rerun of the run does with one sample that has a result from an earlier invocation. */
export type Resume =
  | { kind: 'run' }
  /** Done, but under an earlier version of its task: run it again (says what changed). */
  | { kind: 'rerun'; changed: string }
  /** Done: report the earlier result (kept despite a change when AGENT_RESUME_CHANGED=keep). */
  | { kind: 'resume'; result: Result; keptDespite?: string };

export interface ResumeOptions {
  keepChanged: boolean;
  /** AGENT_JUDGE=batch: a sample whose facts are collected and whose judgment waits for the batch judge is not run again either. */
  judgeBatch: boolean;
}

/**
 * A sample done in an earlier invocation of the run is not run again — unless its task changed since (the spec,
 * its own recipe, or the sample's row), so one combined.csv never mixes two versions of a task without a word.
 */
export function resumeOf(task: LoadedTask, sample: Sample, previous: Result | undefined, options: ResumeOptions): Resume {
  if (!previous) return { kind: 'run' };
  const waitsForJudge = previous.judgment_pending === true && options.judgeBatch;
  if (previous.status !== 'done' && !waitsForJudge) return { kind: 'run' };
  const changed = changesSince(task, sample, previous);
  if (!changed) return { kind: 'resume', result: previous };
  return options.keepChanged ? { kind: 'resume', result: previous, keptDespite: changed } : { kind: 'rerun', changed };
}

/** "the task spec and its recipe": what differs from the version the sample ran, or undefined. */
export function changesSince(task: LoadedTask, sample: Sample, previous: Result): string | undefined {
  const changes = [
    previous.task_hash !== task.hash ? 'the task spec' : undefined,
    // Results written before recipes were hashed say nothing about theirs.
    previous.recipe_hash !== undefined && previous.recipe_hash !== task.recipeHash ? 'its recipe' : undefined,
    stableHash(ownColumns(previous.input)) !== stableHash(ownColumns(sample.row)) ? "the sample's row" : undefined,
  ].filter(Boolean);
  return changes.length ? changes.join(', ') : undefined;
}

/** The row as the user wrote it: when and where a discovery found the sample is not part of it. */
function ownColumns(row: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(row).filter(([column]) => !(DISCOVERY_COLUMNS as readonly string[]).includes(column)));
}

export function previousResult(dir: string): Result | undefined {
  const parsed = Result.safeParse(readJsonIfExists(path.join(dir, RESULT_FILE)));
  return parsed.success ? parsed.data : undefined;
}

/**
 * One line per task whose spec, recipe or rows changed since some of its samples were done in this run: what a
 * resume does about them. Said once, before any sample runs.
 */
export function changedTaskLines(runDir: string, tasks: ReadonlyArray<{ task: LoadedTask; samples: readonly Sample[] }>, keep: boolean): string[] {
  return tasks.flatMap(({ task, samples }) => {
    const changed = samples.flatMap(sample => {
      const previous = previousResult(path.join(runDir, task.spec.task_id, sample.sample_id));
      const what = previous?.status === 'done' ? changesSince(task, sample, previous) : undefined;
      return what ? [what] : [];
    });
    if (!changed.length) return [];
    const what = [...new Set(changed.flatMap(c => c.split(', ')))].join(', ');
    const since = `task ${task.spec.task_id}: ${what} changed since ${changed.length} of its samples were done in this run`;
    return [
      keep
        ? `${since}: kept as they are (AGENT_RESUME_CHANGED=keep) — its combined.csv holds samples of two versions of the task`
        : `${since}: they run again (AGENT_RESUME_CHANGED=keep would keep them)`,
    ];
  });
}
