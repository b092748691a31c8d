import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic, writeJsonAtomic } from '../fs/atomic';
import { confinedPath } from '../fs/confined';
import { sha256, sha256File } from '../evidence/hash';
import type { Result, SampleStatus } from '../evidence/result-schema';
import { addUsage, emptyUsage, type Usage } from '../evidence/usage';
import type { CollectedSample } from './collect';
import { combinedCsv } from './csv';
import { keepEarlierHashes, readEarlierManifest } from './earlier-manifest';
import { placeSample, type ManifestSampleFile } from './sample-files';

export type ManifestArtifact = ManifestSampleFile;

export interface Manifest {
  schema_version: 1;
  run_id: string;
  generated_at: string;
  counts: Record<SampleStatus, number> & { total: number; resumed: number };
  samples: Array<{
    task_id: string;
    sample_id: string;
    status: SampleStatus;
    result: string;
    result_sha256: string;
    /** When the sample finished: a later invocation tells this finish of it from a new one by it. */
    finished_at: string;
    resumed: boolean;
  }>;
  /** Every screenshot and download, with the hash taken when it was written (result.json holds the same). */
  artifacts: ManifestArtifact[];
  /** The rest of each sample's trail: action_log.json, checkpoint.json, trace.zip (and trace-N.zip). */
  records: ManifestSampleFile[];
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
 * Lays the run out on disk from collected samples: each sample's result.json and trail (copied in when the bytes
 * came from elsewhere, e.g. merged shards), combined.csv per task, and the manifest of every hash. Warnings about
 * the run as a whole (a task's samples under two versions of it) open its problems.
 */
export function writeRun(runDir: string, runId: string, samples: readonly CollectedSample[], warnings: readonly string[] = []): Manifest {
  const problems: string[] = [...warnings];
  // Read before this invocation replaces it: a resumed sample's files keep the hashes it recorded.
  const earlier = readEarlierManifest(runDir, MANIFEST_FILE);
  const manifest: Manifest = {
    schema_version: 1,
    run_id: runId,
    generated_at: new Date().toISOString(),
    counts: { done: 0, partial_success: 0, needs_review: 0, failed: 0, total: 0, resumed: 0 },
    samples: [],
    artifacts: [],
    records: [],
    usage: runUsage(samples.map(s => s.result)),
    reports: [],
    problems,
  };
  const byTask = new Map<string, Result[]>();
  // Two ids that differ only in case share a folder on a case-insensitive file system (macOS, Windows).
  const folders = new Map<string, string>();
  const ordered = [...samples].sort((a, b) => key(a.result).localeCompare(key(b.result)));
  for (const sample of ordered) {
    const { result } = sample;
    const folder = `${result.task_id}/${result.sample_id}`;
    const clash = folders.get(folder.toLowerCase());
    if (clash) {
      problems.push(`${folder}: differs from ${clash} only in case (they would share a folder on a case-insensitive file system) — left out`);
      continue;
    }
    folders.set(folder.toLowerCase(), folder);
    const placed = placeSample(runDir, sample, problems);
    if (!placed) continue;
    const kept = keepEarlierHashes(sample, placed, earlier, problems);
    manifest.artifacts.push(...kept.artifacts);
    manifest.records.push(...kept.records);
    manifest.samples.push({
      task_id: result.task_id,
      sample_id: result.sample_id,
      status: result.status,
      result: kept.result.path,
      result_sha256: kept.result.sha256,
      finished_at: result.finished_at,
      resumed: sample.resumed,
    });
    manifest.counts[result.status] += 1;
    manifest.counts.total += 1;
    if (sample.resumed) manifest.counts.resumed += 1;
    byTask.set(result.task_id, [...(byTask.get(result.task_id) ?? []), result]);
  }
  for (const [taskId, results] of byTask) {
    const relative = `${taskId}/${COMBINED_CSV}`;
    const file = confinedPath(runDir, relative);
    if ('problem' in file) {
      problems.push(`${file.problem} — not written`);
      continue;
    }
    const csv = combinedCsv(results);
    writeFileAtomic(file.path, csv);
    manifest.reports.push({ path: relative, sha256: sha256(csv), bytes: Buffer.byteLength(csv) });
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

const key = (r: Result) => `${r.task_id}\u0000${r.sample_id}`;
