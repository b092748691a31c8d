import { expect, test } from '@playwright/test';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HASH_CHUNK_BYTES, sha256, sha256File } from '../../../agent/evidence/hash';
import { tempDir } from '../helpers/temp';

test('a file hashed in chunks has the hash of its bytes, whatever its size against the chunk', () => {
  const dir = tempDir('bwa-hash-');
  for (const size of [0, 1, HASH_CHUNK_BYTES - 1, HASH_CHUNK_BYTES, HASH_CHUNK_BYTES + 1, 3 * HASH_CHUNK_BYTES + 17]) {
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) % 256;
    const file = path.join(dir, `${size}.bin`);
    fs.writeFileSync(file, bytes);
    expect(sha256File(file), `${size} bytes`).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(sha256File(file)).toBe(sha256(bytes));
  }
});

test('a file that is not there is an error naming it', () => {
  expect(() => sha256File('/nonexistent/evidence.png')).toThrow(/ENOENT.*\/nonexistent\/evidence\.png/);
});
