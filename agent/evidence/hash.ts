import { createHash } from 'node:crypto';
import * as fs from 'node:fs';

/** Verify reads evidence in pieces of this size: a 4 GB download costs 1 MiB of memory to re-hash, not 4 GB. */
export const HASH_CHUNK_BYTES = 1024 * 1024;

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The file's SHA-256, read a chunk at a time. */
export function sha256File(file: string): string {
  const hash = createHash('sha256');
  const chunk = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
  const fd = fs.openSync(file, 'r');
  try {
    for (let read = fs.readSync(fd, chunk); read > 0; read = fs.readSync(fd, chunk)) hash.update(chunk.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}
