import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256, sha256File } from '../evidence/hash';
import { confinedPath } from '../fs/confined';
import { copyFileAtomic, writeFileAtomic } from '../fs/atomic';
import { RESULT_FILE } from '../loop/recorder';
import type { CollectedSample } from './collect';

/** A file of a sample in the manifest: an artifact (listed in result.json) or a record (action log, checkpoint, trace). */
export interface ManifestSampleFile {
  path: string;
  sha256: string;
  bytes: number;
  task_id: string;
  sample_id: string;
}

export interface PlacedSample {
  /** The sample folder, relative to the run folder. */
  folder: string;
  artifacts: ManifestSampleFile[];
  records: ManifestSampleFile[];
  result: { path: string; sha256: string };
}

/**
 * Writes one sample into the run folder: its attachments copied in (when their bytes came from elsewhere, e.g.
 * merged shards), each artifact checked against the hash result.json recorded when it was written, every other
 * file of its trail hashed, and result.json written. Every path passes `confinedPath`: a record from another
 * machine names nothing outside the run folder. Undefined when the sample's folder itself is refused.
 */
export function placeSample(runDir: string, sample: CollectedSample, problems: string[]): PlacedSample | undefined {
  const { result } = sample;
  const folder = `${result.task_id}/${result.sample_id}`;
  const dir = confinedPath(runDir, folder);
  if ('problem' in dir) {
    problems.push(`${dir.problem} — the sample is left out`);
    return undefined;
  }
  fs.mkdirSync(dir.path, { recursive: true });
  problems.push(...(sample.problems ?? []));
  const ids = { task_id: result.task_id, sample_id: result.sample_id };
  const listed = new Set(result.artifacts.map(a => a.filename));
  const records: ManifestSampleFile[] = [];
  for (const [filename, source] of [...sample.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const relative = `${folder}/${filename}`;
    const target = confinedPath(runDir, relative);
    if ('problem' in target) {
      problems.push(`${target.problem} — not copied`);
      continue;
    }
    placeFile(source, target.path, relative, problems);
    if (!listed.has(filename) && filename !== RESULT_FILE && fs.existsSync(target.path))
      records.push({ path: relative, ...hashOf(target.path), ...ids });
  }
  const artifacts: ManifestSampleFile[] = [];
  for (const artifact of result.artifacts) {
    const relative = `${folder}/${artifact.filename}`;
    const file = confinedPath(runDir, relative);
    if ('problem' in file) problems.push(file.problem);
    else if (!fs.existsSync(file.path)) problems.push(`${relative}: missing (listed in result.json)`);
    else if (sha256File(file.path) !== artifact.sha256) problems.push(`${relative}: sha256 differs from the hash recorded when it was written`);
    artifacts.push({ path: relative, sha256: artifact.sha256, bytes: artifact.bytes, ...ids });
  }
  const resultText = JSON.stringify(result, null, 2) + '\n';
  const resultFile = path.join(dir.path, RESULT_FILE);
  if (!fs.existsSync(resultFile) || fs.readFileSync(resultFile, 'utf8') !== resultText) writeFileAtomic(resultFile, resultText);
  return { folder, artifacts, records, result: { path: `${folder}/${RESULT_FILE}`, sha256: sha256(resultText) } };
}

function hashOf(file: string): { sha256: string; bytes: number } {
  return { sha256: sha256File(file), bytes: fs.statSync(file).size };
}

function placeFile(source: string, target: string, relative: string, problems: string[]): void {
  if (path.resolve(source) === path.resolve(target)) return;
  if (!fs.existsSync(source)) {
    problems.push(`${relative}: attachment source ${source} is gone`);
    return;
  }
  if (fs.existsSync(target) && sha256File(target) === sha256File(source)) return;
  copyFileAtomic(source, target);
}
