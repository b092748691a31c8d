import { expect, test } from '@playwright/test';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HASH_CHUNK_BYTES, sha256, sha256File } from '../../../agent/evidence/hash';
import { loadWithFsFaults } from '../helpers/fs-faults';
import { PROJECT_ROOT } from '../helpers/nested-run';

const HASH_MODULE = path.join(PROJECT_ROOT, 'agent/evidence/hash.ts');

test('a file is hashed a chunk at a time, never read whole: it has the hash of its bytes at every size around the chunk', ({}, testInfo) => {
  // Every chunked read hash.ts makes, by the room it gives the read: a whole-file read makes none.
  const reads: number[] = [];
  const { sha256File: hashFile } = loadWithFsFaults<typeof import('../../../agent/evidence/hash')>(HASH_MODULE, {
    readSync: real =>
      ((fd: number, buffer: NodeJS.ArrayBufferView, ...rest: never[]) => {
        reads.push(buffer.byteLength);
        return real(fd, buffer, ...rest);
      }) as typeof fs.readSync,
  });
  for (const size of [0, 1, HASH_CHUNK_BYTES - 1, HASH_CHUNK_BYTES, HASH_CHUNK_BYTES + 1, 3 * HASH_CHUNK_BYTES + 17]) {
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) % 256;
    const file = testInfo.outputPath(`${size}.bin`);
    fs.writeFileSync(file, bytes);
    reads.length = 0;
    expect(hashFile(file), `${size} bytes`).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(hashFile(file)).toBe(sha256(bytes));
    // Two hashes, each a read per chunk begun and one that finds the end, none of them larger than a chunk.
    expect(reads, `${size} bytes`).toEqual(Array(2 * (Math.ceil(size / HASH_CHUNK_BYTES) + 1)).fill(HASH_CHUNK_BYTES));
  }
});

test('a file that is not there is an error naming it', () => {
  expect(() => sha256File('/nonexistent/evidence.png')).toThrow(/ENOENT.*\/nonexistent\/evidence\.png/);
});
