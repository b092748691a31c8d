import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { sha256, sha256File } from '../evidence/hash';
import { confinedPath } from '../fs/confined';
import { Result } from '../evidence/result-schema';
import { INDEX_FILE } from './evidence-index';
import { TRACE_FILE } from './traces';
import { MANIFEST_FILE } from './write-run';
import { START_FAILURES_DIR } from '../setup/start-failures';

/** What verify needs from manifest.json; extra keys are allowed so older tools can read newer manifests. */
const ManifestShape = z.object({
  run_id: z.string(),
  samples: z.array(z.object({ task_id: z.string(), sample_id: z.string(), result: z.string(), result_sha256: z.string() })),
  artifacts: z.array(z.object({ path: z.string(), sha256: z.string(), bytes: z.number() })),
  // Manifests written before combined.csv and index.html were hashed have no reports.
  reports: z.array(z.object({ path: z.string(), sha256: z.string(), bytes: z.number() })).default([]),
  // …and those written before action logs, checkpoints and traces were hashed have no records.
  records: z.array(z.object({ path: z.string(), sha256: z.string(), bytes: z.number() })).optional(),
});

export interface VerifyReport {
  runId: string;
  /** The manifest's own hash: nothing in the run can hold it, so a reviewer keeps it elsewhere and compares. */
  manifestSha256?: string;
  samples: number;
  /** Artifact files re-hashed. */
  artifacts: number;
  /** The other files of the trail re-hashed: results, action logs, checkpoints, traces, combined.csv, index.html. */
  otherFiles: number;
  /** Mismatches and missing files: any one makes the run fail verification. */
  problems: string[];
  /** Files the manifest does not list (not evidence, but worth a look). */
  warnings: string[];
}

/** A sample's records, which manifests written before records were hashed do not list. */
const SAMPLE_RECORD_FILES = new Set(['result.json', 'action_log.json', 'checkpoint.json']);
const ATTEMPT_DIR = /^attempt-\d+$/;
/** Run-wide state other parts of bwa keep in the run folder (rate-limit slots, the run's memory). */
const RUN_STATE_DIRS = new Set(['rate-limits', 'memory', START_FAILURES_DIR]);

/**
 * Re-hashes every artifact of a run against manifest.json and against the sample's result.json (the hash taken
 * when the file was written), and every other file the manifest hashed (result.json, action logs, checkpoints,
 * traces, combined.csv, index.html) against it; the manifest itself against a hash kept outside the run, when given.
 */
export function verifyRun(runDir: string, expected: { manifestSha256?: string } = {}): VerifyReport {
  const report: VerifyReport = { runId: path.basename(runDir), samples: 0, artifacts: 0, otherFiles: 0, problems: [], warnings: [] };
  const manifestFile = path.join(runDir, MANIFEST_FILE);
  if (!fs.existsSync(manifestFile)) {
    report.problems.push(`${MANIFEST_FILE}: missing (is ${runDir} a run folder?)`);
    return report;
  }
  let manifest: z.infer<typeof ManifestShape>;
  try {
    manifest = ManifestShape.parse(JSON.parse(fs.readFileSync(manifestFile, 'utf8')));
  } catch (error) {
    report.problems.push(`${MANIFEST_FILE}: unreadable — ${error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message}`);
    return report;
  }
  report.runId = manifest.run_id;
  report.manifestSha256 = sha256File(manifestFile);
  if (expected.manifestSha256 && expected.manifestSha256.toLowerCase() !== report.manifestSha256)
    report.problems.push(
      `${MANIFEST_FILE}: sha256 ${report.manifestSha256} differs from the one given (${expected.manifestSha256}) — the manifest was changed`,
    );

  // Every artifact path with the hash each record claims for it.
  const claims = new Map<string, Array<{ by: string; sha256: string; bytes: number }>>();
  const claim = (file: string, by: string, hash: string, bytes: number) =>
    claims.set(file, [...(claims.get(file) ?? []), { by, sha256: hash, bytes }]);
  for (const artifact of manifest.artifacts) claim(artifact.path, MANIFEST_FILE, artifact.sha256, artifact.bytes);

  const known = new Set<string>([MANIFEST_FILE, INDEX_FILE]);
  for (const file of [...manifest.reports, ...(manifest.records ?? [])]) {
    known.add(file.path);
    report.otherFiles += 1;
    const problem = hashedFileProblem(runDir, file);
    if (problem) report.problems.push(problem);
  }
  for (const sample of manifest.samples) {
    report.samples += 1;
    report.otherFiles += 1;
    known.add(sample.result);
    const resultFile = confinedPath(runDir, sample.result);
    if ('problem' in resultFile || !fs.existsSync(resultFile.path)) {
      report.problems.push('problem' in resultFile ? resultFile.problem : `${sample.result}: missing (listed in ${MANIFEST_FILE})`);
      continue;
    }
    const text = fs.readFileSync(resultFile.path, 'utf8');
    if (sha256(text) !== sample.result_sha256)
      report.problems.push(`${sample.result}: sha256 differs from ${MANIFEST_FILE} (the record was changed after the run)`);
    const parsed = safeResult(text);
    if (!parsed) {
      report.problems.push(`${sample.result}: not a valid result record`);
      continue;
    }
    const folder = path.posix.dirname(sample.result);
    for (const artifact of parsed.artifacts) {
      const relative = `${folder}/${artifact.filename}`;
      claim(relative, sample.result, artifact.sha256, artifact.bytes);
      if (!manifest.artifacts.some(a => a.path === relative))
        report.problems.push(`${relative}: listed in ${sample.result} but not in ${MANIFEST_FILE}`);
    }
  }

  for (const [relative, claimed] of claims) {
    known.add(relative);
    report.artifacts += 1;
    const confined = confinedPath(runDir, relative);
    if ('problem' in confined) {
      report.problems.push(confined.problem);
      continue;
    }
    const file = confined.path;
    if (!fs.existsSync(file)) {
      report.problems.push(`${relative}: missing (listed in ${[...new Set(claimed.map(c => c.by))].join(' and ')})`);
      continue;
    }
    const actual = sha256File(file);
    const bytes = fs.statSync(file).size;
    const wrong = claimed.filter(c => c.sha256 !== actual || c.bytes !== bytes);
    if (wrong.length) {
      report.problems.push(
        `${relative}: sha256 ${actual} (${bytes} B) differs from ${wrong.map(c => `${c.by} (${c.sha256}, ${c.bytes} B)`).join(' and ')}`,
      );
    }
    if (!claimed.some(c => c.by === MANIFEST_FILE)) continue;
    if (!claimed.some(c => c.by !== MANIFEST_FILE)) report.problems.push(`${relative}: listed in ${MANIFEST_FILE} but in no sample's result.json`);
  }

  const unlistedRecords = manifest.records === undefined;
  for (const relative of listFiles(runDir)) {
    if (known.has(relative) || isBookkeeping(relative, unlistedRecords)) continue;
    report.warnings.push(`${relative}: not listed in ${MANIFEST_FILE}`);
  }
  return report;
}

/**
 * A file the manifest hashed itself (combined.csv, index.html, an action log, a checkpoint, a trace); an edit after
 * the run is a problem.
 */
function hashedFileProblem(runDir: string, file: { path: string; sha256: string; bytes: number }): string | undefined {
  const full = confinedPath(runDir, file.path);
  if ('problem' in full) return full.problem;
  if (!fs.existsSync(full.path)) return `${file.path}: missing (listed in ${MANIFEST_FILE})`;
  const actual = sha256File(full.path);
  if (actual !== file.sha256)
    return `${file.path}: sha256 ${actual} differs from ${MANIFEST_FILE} (${file.sha256}) — the file was changed after the run`;
  return undefined;
}

function isBookkeeping(relative: string, unlistedRecords: boolean): boolean {
  const parts = relative.split('/');
  if (parts.length > 1 && RUN_STATE_DIRS.has(parts[0] ?? '')) return true;
  if (parts.length === 2 && (parts[1] === 'combined.csv' || parts[1] === 'samples.csv')) return true;
  // A discovery's own log and summary: how the samples were found, not evidence about a sample.
  if (parts.length > 2 && parts[1] === '_discovery') return true;
  if (unlistedRecords && parts.length === 3 && (SAMPLE_RECORD_FILES.has(parts[2] ?? '') || TRACE_FILE.test(parts[2] ?? ''))) return true;
  // Earlier attempts of a sample are kept apart on purpose; the manifest describes the final attempt only.
  return parts.length > 3 && ATTEMPT_DIR.test(parts[2] ?? '');
}

function safeResult(text: string): Result | undefined {
  try {
    const parsed = Result.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function listFiles(root: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...listFiles(root, relative));
    else files.push(relative);
  }
  return files.sort();
}
