import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256File } from '../evidence/hash';
import { ACTION_LOG_FILE, CHECKPOINT_FILE, RESULT_FILE } from '../loop/recorder';
import { previousResult } from '../setup/resume';
import { checkSampleId } from '../task/samples';
import type { CollectedSample } from './collect';
import { TRACE_FILE } from './traces';

/**
 * Samples of the run that an earlier invocation finished and this one did not select (a resume of one task or one
 * sample): read from the run's folder, so combined.csv, the manifest and the index still show the whole run. A
 * fresh machine merging blob reports has no such folder, and gets exactly what the blobs hold.
 */
export function earlierSamples(runDir: string, reported: ReadonlySet<string>): CollectedSample[] {
  if (!fs.existsSync(runDir)) return [];
  return subfolders(runDir).flatMap(taskId =>
    subfolders(path.join(runDir, taskId)).flatMap(sampleId => {
      // bwa's own folders beside the samples (a discovery's "_discovery") are named as no sample can be.
      if (reported.has(`${taskId}/${sampleId}`) || checkSampleId(sampleId)) return [];
      const dir = path.join(runDir, taskId, sampleId);
      const result = previousResult(dir);
      if (!result || result.task_id !== taskId || result.sample_id !== sampleId) return [];
      const files = new Map<string, string>();
      const traces = fs.readdirSync(dir).filter(name => TRACE_FILE.test(name));
      for (const name of [...result.artifacts.map(a => a.filename), ACTION_LOG_FILE, CHECKPOINT_FILE, ...traces])
        if (fs.existsSync(path.join(dir, name))) files.set(name, path.join(dir, name));
      const resultSha256 = sha256File(path.join(dir, RESULT_FILE));
      return [{ result, files, resumed: true, resultSha256, resumeNote: 'from an earlier invocation; not selected in this one' }];
    }),
  );
}

function subfolders(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter(entry => entry.isDirectory())
    .map(entry => entry.name)
    .sort();
}
