import { expect, test } from '@playwright/test';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256 } from '../../../agent/evidence/hash';
import type { Result } from '../../../agent/evidence/result-schema';
import BwaReporter from '../../../agent/report/reporter';
import { verifyRun } from '../../../agent/report/verify-run';
import { printedBy } from '../helpers/cli';
import { withEnv } from '../helpers/env';
import { resultOf } from '../helpers/results';
import { tempDir } from '../helpers/temp';

/**
 * Blob reports from other machines are untrusted input: merge-reports hands bwa's reporter whatever attachment names
 * and result fields a shard's blob holds. Each test feeds the reporter the test results such a blob would give and
 * checks that nothing lands outside the run folder, and that the run says what it left out.
 */
type Attachment = { name: string; path?: string; body?: Buffer; contentType: string };

const PNG = Buffer.from('png bytes from a shard');

function shardResult(result: Result, attachments: Attachment[] = []): TestResult {
  return {
    attachments: [{ name: 'bwa-result', contentType: 'application/json', body: Buffer.from(JSON.stringify(result)) }, ...attachments],
    annotations: [],
  } as unknown as TestResult;
}

/** Runs the reporter over the results as merge-reports would (no AGENT_RUN_ID: the run id comes from the results). */
async function merge(reports: string, results: TestResult[]): Promise<{ stdout: string; stderr: string; error?: string }> {
  return withEnv({ AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: undefined }, async () => {
    let error: string | undefined;
    const printed = await printedBy(() => {
      const reporter = new BwaReporter();
      for (const [i, result] of results.entries())
        reporter.onTestEnd({ titlePath: () => ['', 'tasks.spec.ts', `t${i}`] } as unknown as TestCase, result);
      try {
        reporter.onEnd({ status: 'passed' } as never);
      } catch (thrown) {
        error = (thrown as Error).message;
      }
    });
    return { stdout: printed.stdout, stderr: printed.stderr, error };
  });
}

/** Every file under root, '/'-separated. */
function filesUnder(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .flatMap(entry => (entry.isFile() ? [path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')] : []));
}

test('an attachment named "bwa-artifact:../../x" and result fields that name other folders write nothing outside the run folder', async () => {
  const root = tempDir('bwa-merged-');
  const reports = path.join(root, 'reports');
  const shard = path.join(root, 'shard');
  fs.mkdirSync(shard);
  fs.writeFileSync(path.join(shard, 'resource-1.png'), PNG);
  const png = { sha256: sha256(PNG), bytes: PNG.length, kind: 'screenshot' as const, source_url: 'http://x', timestamp: 't' };
  const results = [
    // A good sample whose blob also carries an attachment that climbs out of its folder.
    shardResult(resultOf({ run_id: 'merged', sample_id: 'good', artifacts: [{ ...png, filename: '01_page.png' }] }), [
      { name: 'bwa-artifact:01_page.png', path: path.join(shard, 'resource-1.png'), contentType: 'image/png' },
      { name: 'bwa-artifact:../../../escaped.png', path: path.join(shard, 'resource-1.png'), contentType: 'image/png' },
    ]),
    // Result fields bwa makes paths of, each naming somewhere else.
    shardResult(resultOf({ run_id: 'merged', sample_id: 'climber', artifacts: [{ ...png, filename: '../../escaped.png' }] }), [
      { name: 'bwa-artifact:../../escaped.png', path: path.join(shard, 'resource-1.png'), contentType: 'image/png' },
    ]),
    shardResult(resultOf({ run_id: 'merged', task_id: '../outside', sample_id: 'x' })),
    shardResult(resultOf({ run_id: 'merged', sample_id: '../x' })),
    shardResult(resultOf({ run_id: 'merged', sample_id: 'overwriter', artifacts: [{ ...png, filename: 'result.json' }] })),
  ];
  const { stdout, error } = await merge(reports, results);
  expect(error).toBeUndefined();

  expect(filesUnder(root).filter(f => !f.startsWith('reports/runs/merged/') && !f.startsWith('shard/'))).toEqual([]);
  const run = path.join(reports, 'runs', 'merged');
  expect(filesUnder(run).sort()).toEqual(['demo/combined.csv', 'demo/good/01_page.png', 'demo/good/result.json', 'index.html', 'manifest.json']);
  const lines = stdout.split('\n');
  expect(lines).toContain('  ! demo/good: attachment "bwa-artifact:../../../escaped.png" names no artifact of its result.json — not copied');
  expect(lines).toContainEqual(
    expect.stringMatching(
      /t1: result attachment: artifacts\[0\]\.filename "\.\.\/\.\.\/escaped\.png" holds a "\/" .* — its sample is left out of the run folder$/,
    ),
  );
  expect(lines).toContainEqual(expect.stringMatching(/t2: result attachment: task_id "\.\.\/outside" is not a task id/));
  expect(lines).toContainEqual(expect.stringMatching(/t3: result attachment: sample_id "\.\.\/x" contains a path separator or "\.\."/));
  expect(lines).toContainEqual(expect.stringMatching(/t4: result attachment: artifacts\[0\]\.filename "result\.json" is a record's name/));
  expect(verifyRun(run).problems).toEqual([]);
});

test('a run id from a blob that is not a safe folder name is refused; so is a folder on the way that is a symbolic link', async () => {
  const root = tempDir('bwa-merged-');
  const reports = path.join(root, 'reports');
  const unsafe = await merge(reports, [shardResult(resultOf({ run_id: '../../etc' }))]);
  expect(unsafe.stderr).toMatch(/t0: result attachment: run_id "\.\.\/\.\.\/etc" is not a safe folder name/);
  expect(unsafe.error).toBe('no sample result could be read (the problems are listed above): there is no run to lay out');
  expect(fs.existsSync(path.join(root, 'etc'))).toBe(false);

  // The run folder already holds a task folder that links elsewhere (a resumed or re-merged run someone tampered with).
  const elsewhere = path.join(root, 'elsewhere');
  fs.mkdirSync(elsewhere);
  fs.mkdirSync(path.join(reports, 'runs', 'linked'), { recursive: true });
  fs.symlinkSync(elsewhere, path.join(reports, 'runs', 'linked', 'demo'));
  const linked = await merge(reports, [shardResult(resultOf({ run_id: 'linked', sample_id: 'a' }))]);
  expect(fs.readdirSync(elsewhere)).toEqual([]);
  expect(linked.stdout).toContain('  ! demo/a: demo is a symbolic link (it could lead out of the run folder) — the sample is left out');
});

test('two samples whose ids differ only in case: the second is left out, named, instead of sharing a folder', async () => {
  const reports = tempDir('bwa-merged-');
  const { stdout } = await merge(reports, [
    shardResult(resultOf({ run_id: 'cases', sample_id: 'Ada' })),
    shardResult(resultOf({ run_id: 'cases', sample_id: 'ada' })),
  ]);
  const manifest = JSON.parse(fs.readFileSync(path.join(reports, 'runs', 'cases', 'manifest.json'), 'utf8')) as {
    samples: Array<{ sample_id: string }>;
  };
  expect(manifest.samples).toHaveLength(1);
  const [kept] = manifest.samples;
  const other = kept!.sample_id === 'Ada' ? 'ada' : 'Ada';
  expect(stdout).toContain(
    `  ! demo/${other}: differs from demo/${kept!.sample_id} only in case (they would share a folder on a case-insensitive file system) — left out`,
  );
});
