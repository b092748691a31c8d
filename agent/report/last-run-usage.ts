import * as fs from 'node:fs';
import * as path from 'node:path';
import { readJsonIfExists } from '../fs/atomic';
import { Result } from '../evidence/result-schema';
import { addUsage, emptyUsage, type Usage } from '../evidence/usage';
import { RESULT_FILE } from '../loop/recorder';

export interface TaskUsage {
  taskId: string;
  runId: string;
  /** Samples of that run the model decided (their usage counts model calls). */
  samples: number;
  /** Their usage added up. */
  total: Usage;
}

function subdirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter(e => e.isDirectory())
      .map(e => e.name);
  } catch {
    return [];
  }
}

/**
 * For each task, the model usage of its most recent run (by the latest finished_at of its results) among the
 * runs under `reportsDir/runs` whose samples made model calls. Replayed samples (no model call) are left out:
 * the figures are what a model-decided sample uses.
 */
export function lastRunUsage(reportsDir: string): TaskUsage[] {
  const latest = new Map<string, TaskUsage & { finishedAt: string }>();
  const runsDir = path.join(reportsDir, 'runs');
  for (const runId of subdirs(runsDir))
    for (const taskId of subdirs(path.join(runsDir, runId))) {
      const results = subdirs(path.join(runsDir, runId, taskId)).flatMap(sample => {
        const parsed = Result.safeParse(readJsonIfExists(path.join(runsDir, runId, taskId, sample, RESULT_FILE)));
        return parsed.success && parsed.data.usage.model_calls > 0 ? [parsed.data] : [];
      });
      if (results.length === 0) continue;
      const finishedAt = results
        .map(r => r.finished_at)
        .sort()
        .at(-1)!;
      if ((latest.get(taskId)?.finishedAt ?? '') >= finishedAt) continue;
      const total = emptyUsage();
      for (const result of results) addUsage(total, result.usage);
      latest.set(taskId, { taskId, runId, samples: results.length, total, finishedAt });
    }
  return [...latest.values()].map(({ finishedAt: _finishedAt, ...usage }) => usage).sort((a, b) => a.taskId.localeCompare(b.taskId));
}
