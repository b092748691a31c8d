import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyFileAtomic, writeFileAtomic, writeJsonAtomic } from '../fs/atomic';
import { sha256, sha256File } from '../evidence/hash';
import type { Result, SampleStatus } from '../evidence/result-schema';
import { addUsage, emptyUsage, type Usage } from '../evidence/usage';
import type { CollectedSample } from './collect';
import { combinedCsv } from './csv';

export interface ManifestArtifact {
  path: string;
  sha256: string;
  bytes: number;
  task_id: string;
  sample_id: string;
}

export interface Manifest {
  schema_version: 1;
  run_id: string;
  generated_at: string;
  counts: Record<SampleStatus, number> & { total: number; resumed: number };
  samples: Array<{ task_id: string; sample_id: string; status: SampleStatus; result: string; result_sha256: string; resumed: boolean }>;
  artifacts: ManifestArtifact[];
  /** Every model call of the run's samples, by purpose; a batch judge call shared by several samples counts once. */
  usage: Usage;
  /** The run's own files a reviewer opens first (each task's combined.csv, index.html), hashed like the evidence. */
  reports: ManifestFile[];
  problems: string[];
}

export interface ManifestFile {
  path: string;
  sha256: string;
  bytes: number;
}

export const MANIFEST_FILE = 'manifest.json';

/**
 * Lays the run out on disk from collected samples: each sample's result.json and evidence (copied in when
 * the bytes came from elsewhere, e.g. merged shards), combined.csv per task, and the manifest of every hash.
 * Warnings about the run as a whole (a task's samples under two versions of it) open its problems.
 */
export function writeRun(runDir: string, runId: string, samples: readonly CollectedSample[], warnings: readonly string[] = []): Manifest {
  const problems: string[] = [...warnings];
  const manifest: Manifest = {
    schema_version: 1,
    run_id: runId,
    generated_at: new Date().toISOString(),
    counts: { done: 0, partial_success: 0, needs_review: 0, failed: 0, total: 0, resumed: 0 },
    samples: [],
    artifacts: [],
    usage: runUsage(samples.map(s => s.result)),
    reports: [],
    problems,
  };
  const byTask = new Map<string, Result[]>();
  const ordered = [...samples].sort((a, b) => key(a.result).localeCompare(key(b.result)));
  for (const sample of ordered) {
    const { result } = sample;
    const dir = path.join(runDir, result.task_id, result.sample_id);
    fs.mkdirSync(dir, { recursive: true });
    for (const [filename, source] of sample.files) placeFile(source, path.join(dir, filename), problems);
    for (const artifact of result.artifacts) {
      const file = path.join(dir, artifact.filename);
      const relative = path.relative(runDir, file).split(path.sep).join('/');
      if (!fs.existsSync(file)) problems.push(`${relative}: missing (listed in result.json)`);
      else if (sha256File(file) !== artifact.sha256) problems.push(`${relative}: sha256 differs from the hash recorded when it was written`);
      manifest.artifacts.push({
        path: relative,
        sha256: artifact.sha256,
        bytes: artifact.bytes,
        task_id: result.task_id,
        sample_id: result.sample_id,
      });
    }
    const resultText = JSON.stringify(result, null, 2) + '\n';
    const resultFile = path.join(dir, 'result.json');
    if (!fs.existsSync(resultFile) || fs.readFileSync(resultFile, 'utf8') !== resultText) writeFileAtomic(resultFile, resultText);
    manifest.samples.push({
      task_id: result.task_id,
      sample_id: result.sample_id,
      status: result.status,
      result: path.relative(runDir, resultFile).split(path.sep).join('/'),
      result_sha256: sha256(resultText),
      resumed: sample.resumed,
    });
    manifest.counts[result.status] += 1;
    manifest.counts.total += 1;
    if (sample.resumed) manifest.counts.resumed += 1;
    byTask.set(result.task_id, [...(byTask.get(result.task_id) ?? []), result]);
  }
  for (const [taskId, results] of byTask) {
    const csv = combinedCsv(results);
    writeFileAtomic(path.join(runDir, taskId, COMBINED_CSV), csv);
    manifest.reports.push({ path: `${taskId}/${COMBINED_CSV}`, sha256: sha256(csv), bytes: Buffer.byteLength(csv) });
  }
  writeJsonAtomic(path.join(runDir, MANIFEST_FILE), manifest);
  return manifest;
}

export function runUsage(results: readonly Result[]): Usage {
  const total = emptyUsage();
  const batches = new Map<string, Usage>();
  for (const result of results) {
    addUsage(total, result.usage);
    if (result.judgment_batch) batches.set(result.judgment_batch.id, result.judgment_batch.usage);
  }
  for (const usage of batches.values()) addUsage(total, usage);
  return total;
}

export const COMBINED_CSV = 'combined.csv';

/** A file of the run (e.g. index.html, written after the manifest) hashed into the manifest's reports. */
export function hashedReport(runDir: string, relative: string): ManifestFile | undefined {
  const file = path.join(runDir, ...relative.split('/'));
  if (!fs.existsSync(file)) return undefined;
  return { path: relative, sha256: sha256File(file), bytes: fs.statSync(file).size };
}

function placeFile(source: string, target: string, problems: string[]): void {
  if (path.resolve(source) === path.resolve(target)) return;
  if (!fs.existsSync(source)) {
    problems.push(`${target}: attachment source ${source} is gone`);
    return;
  }
  if (fs.existsSync(target) && sha256File(target) === sha256File(source)) return;
  copyFileAtomic(source, target);
}

const key = (r: Result) => `${r.task_id}\u0000${r.sample_id}`;
