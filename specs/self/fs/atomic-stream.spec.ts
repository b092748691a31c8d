import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyFileAtomic, EvidenceWriteError } from '../../../agent/fs/atomic';
import { placeSample } from '../../../agent/report/sample-files';
import { resultOf } from '../helpers/results';
import { sha256 } from '../../../agent/evidence/hash';
import { EvidenceStore } from '../../../agent/evidence/store';
import { tempDir } from '../helpers/temp';

/** A download that pauses after its first chunk until `go` is called, so a test can look at the folder mid-write. */
function pausedSource(chunks: Buffer[], failAfterPause = false) {
  let go!: () => void;
  const paused = new Promise<void>(resolve => (go = resolve));
  let reachedPause!: () => void;
  const atPause = new Promise<void>(resolve => (reachedPause = resolve));
  async function* source(): AsyncIterable<Buffer> {
    yield chunks[0]!;
    reachedPause();
    await paused;
    if (failAfterPause) throw new Error('connection reset');
    yield* chunks.slice(1);
  }
  return { source: source(), atPause, go: () => go() };
}

test('a download is written as atomic writes are: a hidden per-process temp file beside it, then renamed whole', async () => {
  const store = new EvidenceStore(tempDir('bwa-stream-'));
  const chunks = [Buffer.alloc(64 * 1024, 1), Buffer.alloc(64 * 1024, 2)];
  const { source, atPause, go } = pausedSource(chunks);
  const saving = store.saveFromStream(source, 'report.pdf', 'http://x/report.pdf');
  await atPause;
  // Until the last byte is in, only the temp file exists, named like writeFileAtomic's.
  await expect
    .poll(() => fs.readdirSync(store.dir))
    .toEqual([expect.stringMatching(new RegExp(`^\\.01_report\\.pdf\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`))]);
  go();
  const artifact = await saving;
  expect(fs.readdirSync(store.dir)).toEqual(['01_report.pdf']);
  expect(artifact.sha256).toBe(sha256(Buffer.concat(chunks)));
  expect(artifact.bytes).toBe(128 * 1024);
});

test('a download that breaks off leaves neither the file nor its temp file, and says which file it was', async () => {
  const store = new EvidenceStore(tempDir('bwa-stream-'));
  const { source, atPause, go } = pausedSource([Buffer.from('partial'), Buffer.from('never')], true);
  const saving = store.saveFromStream(source, 'data.csv', 'http://x/data.csv');
  await atPause;
  go();
  await expect(saving).rejects.toThrow(EvidenceWriteError);
  await expect(saving).rejects.toThrow(`Could not write ${path.join(store.dir, '01_data.csv')}: connection reset`);
  expect(fs.readdirSync(store.dir)).toEqual([]);
  expect(store.artifacts).toEqual([]);
});

test('evidence copied into the run folder (an artifact from a shard, a trace) is published like any atomic write', () => {
  // Its memory (the kernel copies; nothing is read whole) is bench/verify's to measure.
  const dir = tempDir('bwa-copy-');
  const source = path.join(dir, 'big.bin');
  const bytes = Buffer.alloc(3 * 1024 * 1024 + 7, 5);
  fs.writeFileSync(source, bytes);
  copyFileAtomic(source, path.join(dir, 'copy', 'big.bin'));
  expect(fs.readFileSync(path.join(dir, 'copy', 'big.bin')).equals(bytes)).toBe(true);
  const sample = { result: resultOf({ task_id: 'task', sample_id: 'sample' }), files: new Map([['trace.zip', source]]), resumed: false };
  const placed = placeSample(path.join(dir, 'run'), sample, []);
  expect(placed?.records).toEqual([
    { path: 'task/sample/trace.zip', sha256: sha256(bytes), bytes: bytes.length, task_id: 'task', sample_id: 'sample' },
  ]);
  expect(() => copyFileAtomic(path.join(dir, 'gone.bin'), path.join(dir, 'copy', 'gone.bin'))).toThrow(
    `Could not write ${path.join(dir, 'copy', 'gone.bin')}: ENOENT`,
  );
  expect(fs.readdirSync(path.join(dir, 'copy'))).toEqual(['big.bin']);
});
