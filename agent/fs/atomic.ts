import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';

export class EvidenceWriteError extends Error {
  readonly code = 'BWA_EVIDENCE_WRITE';
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`Could not write ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * Writes via a temp file in the same folder, fsync, then rename: a reader (or a crash) only ever sees
 * the previous complete file or the new complete file, never a truncated one.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  publishAtomic(file, tmp => withSyncedFile(tmp, 'w', fd => fs.writeFileSync(fd, data)));
}

/** The same as writeFileAtomic for bytes that arrive as a stream (a download): never held whole in memory. */
export async function writeStreamAtomic(file: string, source: AsyncIterable<Uint8Array>): Promise<void> {
  const tmp = tempPathFor(file);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Opened before the copy starts: a stream that opens its own file may create it after a failed copy's cleanup.
    const handle = await fs.promises.open(tmp, 'w');
    // flush: the file is fsynced before it closes, so the rename never publishes bytes still in a cache.
    await pipeline(source, handle.createWriteStream({ flush: true }));
    fs.renameSync(tmp, file);
  } catch (error) {
    removeQuietly(tmp);
    throw new EvidenceWriteError(file, error);
  }
}

/**
 * A copy published as writeFileAtomic publishes (temp file beside the target, fsync, rename), made by the kernel
 * (copy_file_range / sendfile) so a large artifact or trace is never held whole in memory.
 */
export function copyFileAtomic(source: string, file: string): void {
  publishAtomic(file, tmp => {
    fs.copyFileSync(source, tmp);
    withSyncedFile(tmp, 'r+');
  });
}

/**
 * The one way a file is published (sync): `fill` writes the temp file beside the target and flushes it to disk,
 * then a rename makes it the file at once; on any failure the temp file goes and the error names the file.
 */
function publishAtomic(file: string, fill: (tmp: string) => void): void {
  const tmp = tempPathFor(file);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fill(tmp);
    fs.renameSync(tmp, file);
  } catch (error) {
    removeQuietly(tmp);
    throw new EvidenceWriteError(file, error);
  }
}

/** Opens the file, lets `write` use it, and fsyncs it before closing, so a rename never publishes cached bytes. */
function withSyncedFile(file: string, flags: 'w' | 'r+', write?: (fd: number) => void): void {
  const fd = fs.openSync(file, flags);
  try {
    write?.(fd);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Hidden, beside the file (so the rename stays on one file system), unique per process and write. */
function tempPathFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Cleanup must never mask the error that made it necessary. */
export function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // The original error is the one worth reporting.
  }
}

export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, JSON.stringify(value, null, 2) + '\n');
}

/** The parsed file, or undefined when there is none. */
export function readJsonIfExists(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
