import { expect, test } from '@playwright/test';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Manifest } from '../../../agent/report/write-run';
import { PROJECT_ROOT, runNested } from '../helpers/nested-run';
import { tempDir } from '../helpers/temp';

test.setTimeout(240_000);

/**
 * Everything but run-time fields: who ran it and when, and the screenshots' bytes (two runs render a page a few
 * bytes apart — antialiasing, load timing — so each run's hashes are checked against its own files instead).
 */
function comparable(manifest: Manifest) {
  return { counts: manifest.counts, artifacts: manifest.artifacts.map(({ bytes: _bytes, sha256: _sha, ...rest }) => rest), samples: manifest.samples.map(({ result_sha256: _hash, ...rest }) => rest), problems: manifest.problems };
}

test('three shards merged with merge-reports give the same combined.csv and manifest as one run', async () => {
  const reports = tempDir('bwa-shards-');
  const task = ['--project=tasks', '--grep', '@people_profile'];
  const single = await runNested({ args: [...task, '--workers=2'], env: { AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: 'single' } });
  expect(single.code, single.output).toBe(0);

  for (const shard of [1, 2, 3]) {
    const run = await runNested({
      args: [...task, `--shard=${shard}/3`, '--reporter=blob'],
      env: { AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: `shard${shard}`, PLAYWRIGHT_BLOB_OUTPUT_DIR: path.join(reports, `blob-${shard}`) },
    });
    expect(run.code, run.output).toBe(0);
  }
  const merged = path.join(reports, 'all-blobs');
  fs.mkdirSync(merged);
  for (const shard of [1, 2, 3]) for (const file of fs.readdirSync(path.join(reports, `blob-${shard}`))) fs.copyFileSync(path.join(reports, `blob-${shard}`, file), path.join(merged, file));

  const merge = await runNested({ command: ['merge-reports'], args: ['--reporter', path.join(PROJECT_ROOT, 'agent/report/reporter.ts'), merged], env: { AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: 'merged' } });
  expect(merge.code, merge.output).toBe(0);
  expect(merge.output).toContain('bwa run merged: 6 samples — 6 done');

  const read = (run: string, file: string) => fs.readFileSync(path.join(reports, 'runs', run, file), 'utf8');
  expect(read('merged', 'people_profile/combined.csv')).toBe(read('single', 'people_profile/combined.csv'));
  const singleManifest = JSON.parse(read('single', 'manifest.json')) as Manifest;
  const mergedManifest = JSON.parse(read('merged', 'manifest.json')) as Manifest;
  expect(comparable(mergedManifest)).toEqual(comparable(singleManifest));
  expect(mergedManifest.artifacts).toHaveLength(6);
  // The merge machine has every screenshot, copied out of the blob reports, with the bytes that were hashed.
  for (const artifact of mergedManifest.artifacts) {
    const bytes = fs.readFileSync(path.join(reports, 'runs', 'merged', artifact.path));
    expect({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }, artifact.path).toEqual({ bytes: artifact.bytes, sha256: artifact.sha256 });
  }
  expect(mergedManifest.problems).toEqual([]);
});
