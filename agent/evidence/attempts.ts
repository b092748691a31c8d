import * as fs from 'node:fs';
import * as path from 'node:path';

const ATTEMPT_DIR = /^attempt-(\d+)$/;

/**
 * A sample folder that already holds files (a retry, or a run killed mid-sample) is moved aside into
 * attempt-N/ before the new attempt writes: earlier evidence is kept apart, never overwritten.
 */
export function archivePreviousAttempt(dir: string): string | undefined {
  if (!fs.existsSync(dir)) return undefined;
  const entries = fs.readdirSync(dir).filter(name => !ATTEMPT_DIR.test(name));
  if (entries.length === 0) return undefined;
  const next = 1 + Math.max(0, ...fs.readdirSync(dir).map(name => Number(ATTEMPT_DIR.exec(name)?.[1] ?? 0)));
  const archive = path.join(dir, `attempt-${next}`);
  fs.mkdirSync(archive);
  for (const name of entries) fs.renameSync(path.join(dir, name), path.join(archive, name));
  return archive;
}
