import * as fs from 'node:fs';
import * as path from 'node:path';
import { runDir, settings } from '../settings';

/** Where the discovery phase writes a task's samples for the current run. */
export function discoveredSamplesPath(taskId: string, runId = settings.runId): string {
  return path.join(runDir(runId), taskId, 'samples.csv');
}

export function discoveredSamplesFile(taskId: string): string | undefined {
  const file = discoveredSamplesPath(taskId);
  return fs.existsSync(file) ? file : undefined;
}
