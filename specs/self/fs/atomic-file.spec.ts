import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EvidenceWriteError, writeFileAtomic } from '../../../agent/fs/atomic';
import { loadWithFsFaults } from '../helpers/fs-faults';
import { PROJECT_ROOT } from '../helpers/nested-run';

const ATOMIC_MODULE = path.join(PROJECT_ROOT, 'agent/fs/atomic.ts');

test('a write that cannot start throws an EvidenceWriteError naming the file', ({}, testInfo) => {
  const file = testInfo.outputPath('result.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, '{"v":1}');
  // A path under a regular file fails for every user, root included.
  expect(() => writeFileAtomic(path.join(file, 'nested.json'), 'x')).toThrow(EvidenceWriteError);
  expect(() => writeFileAtomic(path.join(file, 'nested.json'), 'x')).toThrow(/Could not write .*nested\.json/);
});

test('a write that fails after its temp file exists — the disk full half-way, the rename refused — leaves the old file whole and no temp file', ({}, testInfo) => {
  const failure = (code: string) => Object.assign(new Error(`${code}: injected`), { code });
  for (const fault of ['disk full half-way', 'rename refused'] as const) {
    const dir = testInfo.outputPath(fault.replace(/ /g, '-'));
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'result.json');
    writeFileAtomic(file, '{"v":1}');
    // What the folder held when the write failed: the temp file must have existed, or this proves nothing.
    let atFailure: string[] = [];
    const atomic = loadWithFsFaults<typeof import('../../../agent/fs/atomic')>(ATOMIC_MODULE, {
      writeFileSync: real => (target, data, options) => {
        if (fault !== 'disk full half-way') return real(target, data, options);
        real(target, String(data).slice(0, String(data).length / 2));
        atFailure = fs.readdirSync(dir);
        throw failure('ENOSPC');
      },
      renameSync: real => (from, to) => {
        if (fault !== 'rename refused') return real(from, to);
        atFailure = fs.readdirSync(dir);
        throw failure('EPERM');
      },
    });
    expect(() => atomic.writeFileAtomic(file, '{"v":2,"padding":"' + 'x'.repeat(64) + '"}'), fault).toThrow(/Could not write .*result\.json/);
    expect(
      atFailure.filter(name => name !== 'result.json'),
      `${fault}: a temp file beside the old one`,
    ).toHaveLength(1);
    expect(fs.readFileSync(file, 'utf8'), fault).toBe('{"v":1}');
    expect(fs.readdirSync(dir), fault).toEqual(['result.json']);
  }
});
