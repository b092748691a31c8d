import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { ACTION_LOG_FILE, RESULT_FILE } from '../loop/recorder';
import type { CollectedSample } from './collect';
import type { PlacedSample } from './sample-files';

const Hashed = z.object({ path: z.string(), sha256: z.string(), bytes: z.number() });
/** What this needs of an earlier manifest.json: older ones have no records, and anything unreadable is none. */
const EarlierShape = z.object({
  samples: z.array(z.object({ result: z.string(), result_sha256: z.string(), finished_at: z.string().optional() })),
  records: z.array(Hashed.extend({ task_id: z.string(), sample_id: z.string() })).default([]),
});
type Earlier = z.infer<typeof EarlierShape>;

/** The hashes the run's manifest.json held before this invocation replaces it (a resume, a later judge, a merge into it). */
export function readEarlierManifest(runDir: string, manifestFile: string): Earlier | undefined {
  try {
    const parsed = EarlierShape.safeParse(JSON.parse(fs.readFileSync(path.join(runDir, manifestFile), 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A resumed sample was not written by this invocation: an earlier one hashed its files. A file that differs from
 * that hash now was changed in between, and re-hashing it would bless the change — so the earlier hash stays in
 * the manifest (`bwa verify` keeps failing on the file) and the run names the file. A record the earlier manifest
 * listed that is gone stays listed too (verify reports it missing). Compared only when the earlier manifest hashed
 * this same finish of the sample (its finished_at): one run again since (an invocation killed before its report)
 * has new files. What the batch judge rewrote in this invocation (result.json, action_log.json) is new, not changed.
 */
export function keepEarlierHashes(sample: CollectedSample, placed: PlacedSample, earlier: Earlier | undefined, problems: string[]): PlacedSample {
  const hashed = earlier?.samples.find(s => s.result === placed.result.path);
  if (!earlier || !hashed || !sample.resumed || hashed.finished_at !== sample.result.finished_at) return placed;
  const rewritten = new Set(sample.judged ? [RESULT_FILE, ACTION_LOG_FILE] : []);
  const changed = (relative: string, before: string) =>
    problems.push(
      `${relative}: changed since an earlier invocation of the run hashed it (sha256 ${before.slice(0, 12)}…) — the manifest keeps that hash`,
    );

  let result = placed.result;
  if (!rewritten.has(RESULT_FILE) && sample.resultSha256 && sample.resultSha256 !== hashed.result_sha256) {
    changed(result.path, hashed.result_sha256);
    result = { ...result, sha256: hashed.result_sha256 };
  }
  const records = new Map(placed.records.map(r => [r.path, r]));
  for (const before of earlier.records.filter(r => r.path.startsWith(`${placed.folder}/`))) {
    if (rewritten.has(path.posix.basename(before.path))) continue;
    const current = records.get(before.path);
    if (current?.sha256 === before.sha256) continue;
    if (current) changed(before.path, before.sha256);
    else problems.push(`${before.path}: gone since an earlier invocation of the run hashed it — the manifest keeps it`);
    records.set(before.path, before);
  }
  return { ...placed, result, records: [...records.values()].sort((a, b) => (a.path < b.path ? -1 : 1)) };
}
