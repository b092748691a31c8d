/**
 * What re-hashing evidence costs in memory: `bwa verify` reads every screenshot and download again. Hashes one file
 * of --mb MiB (default 512) in a fresh process each way — whole (the file read into memory, as verify did before)
 * and in chunks (agent/evidence/hash.ts) — and copies it into a run folder each way (read whole then written, as the
 * reporter did, and copyFileAtomic), and prints each process's peak resident memory.
 * Usage: npx tsx bench/verify/run.ts [--mb 512]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256File } from '../../agent/evidence/hash';
import { copyFileAtomic, writeFileAtomic } from '../../agent/fs/atomic';
import { tempDirFor } from '../lib/temp';

const [, , mode, file] = process.argv;
const WAYS: Record<string, (file: string) => string> = {
  '--hash-whole': file => createHash('sha256').update(fs.readFileSync(file)).digest('hex'),
  '--hash-chunked': file => sha256File(file),
  '--copy-whole': file => (writeFileAtomic(`${file}.copy`, fs.readFileSync(file)), sha256File(`${file}.copy`)),
  '--copy-atomic': file => (copyFileAtomic(file, `${file}.copy`), sha256File(`${file}.copy`)),
};
const way = mode ? WAYS[mode] : undefined;
if (way) {
  const started = process.hrtime.bigint();
  const digest = way(file!);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(JSON.stringify({ digest, ms, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
} else {
  const flag = process.argv.indexOf('--mb');
  const mib = flag === -1 ? 512 : Number(process.argv[flag + 1]);
  const big = path.join(tempDirFor('verify'), 'download.bin');
  const block = Buffer.alloc(1024 * 1024);
  const fd = fs.openSync(big, 'w');
  for (let i = 0; i < mib; i++) fs.writeSync(fd, block.fill(i % 251));
  fs.closeSync(fd);
  const measure = (how: string) => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', __filename, how, big], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    return JSON.parse(child.stdout) as { digest: string; ms: number; maxRssMiB: number };
  };
  const whole = measure('--hash-whole');
  const chunked = measure('--hash-chunked');
  const copiedWhole = measure('--copy-whole');
  const copied = measure('--copy-atomic');
  if (new Set([whole, chunked, copiedWhole, copied].map(r => r.digest)).size !== 1) throw new Error('the ways disagree on the hash');
  console.log(`| how | file MiB | peak RSS MiB | ms |\n|---|---|---|---|`);
  for (const [how, r] of [
    ['hash: whole file in memory', whole],
    ['hash: 1 MiB chunks', chunked],
    ['copy: read whole, writeFileAtomic', copiedWhole],
    ['copy: copyFileAtomic', copied],
  ] as const)
    console.log(`| ${how} | ${mib} | ${r.maxRssMiB.toFixed(0)} | ${r.ms.toFixed(0)} |`);
  console.log(`peak memory chunked / whole: ${(chunked.maxRssMiB / whole.maxRssMiB).toFixed(2)}`);
  console.log(`peak memory copyFileAtomic / whole copy: ${(copied.maxRssMiB / copiedWhole.maxRssMiB).toFixed(2)}`);
  fs.rmSync(path.dirname(big), { recursive: true, force: true });
}
