import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { ACTION_LOG_FILE, RESULT_FILE } from '../loop/recorder';
import type { CollectedSample } from './collect';
import type { PlacedSample } from './sample-files';

const Hashed = z.object({ path: z.string(), sha256: z.string(), bytes: z.number() });
/** What this needs of an earlier manifest.json: older ones have no records, and anything unreadable is none. */
const EarlierShape = z.object({
  samples: z.array(z.object({ result: z.string(), result_sha256: z.string() })),
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
 * listed that is gone stays listed too (verify reports it missing). What the batch judge rewrote in this
 * invocation (its result.json and action_log.json) is new, not changed.
 */
export function keepEarlierHashes(sample: CollectedSample, placed: PlacedSample, earlier: Earlier | undefined, problems: string[]): PlacedSample {
  if (!earlier || !sample.resumed) return placed;
  const rewritten = new Set(sample.judged ? [RESULT_FILE, ACTION_LOG_FILE] : []);
  const changed = (relative: string, before: string) =>
    problems.push(
      `${relative}: changed since an earlier invocation of the run hashed it (sha256 ${before.slice(0, 12)}…) — the manifest keeps that hash`,
    );

  let result = placed.result;
  const resultBefore = earlier.samples.find(s => s.result === placed.result.path)?.result_sha256;
  if (resultBefore && !rewritten.has(RESULT_FILE) && sample.resultSha256 && sample.resultSha256 !== resultBefore) {
    changed(result.path, resultBefore);
    result = { ...result, sha256: resultBefore };
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
