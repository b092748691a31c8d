import * as path from 'node:path';
import { readJsonIfExists } from '../fs/atomic';
import { Result } from '../evidence/result-schema';
import { RESULT_FILE } from '../loop/recorder';
import { sampleDir } from '../settings';

export interface PendingSample {
  dir: string;
  result: Result;
}

/** Samples of this run whose facts are collected and whose judgment was left to the batch judge. */
export function pendingJudgments(runId: string, taskId: string, sampleIds: readonly string[], reportsDir?: string): PendingSample[] {
  const pending: PendingSample[] = [];
  for (const sampleId of sampleIds) {
    const dir = sampleDir(runId, taskId, sampleId, reportsDir);
    const parsed = Result.safeParse(readJsonIfExists(path.join(dir, RESULT_FILE)));
    if (parsed.success && parsed.data.judgment_pending && parsed.data.run_id === runId) pending.push({ dir, result: parsed.data });
  }
  return pending;
}
