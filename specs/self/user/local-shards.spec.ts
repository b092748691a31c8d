import { expect, test } from '@playwright/test';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Manifest } from '../../../agent/report/write-run';
import { runNested } from '../helpers/nested-run';
import { tempDir } from '../helpers/temp';
import { runBwa } from '../helpers/cli-process';
import { bookTask, freePort, writeSiteScript, writeTask } from './own-site';

test.setTimeout(300_000);

/**
 * Everything but run-time fields: who ran it and when, and the screenshots' bytes (two runs render a page a few
 * bytes apart — antialiasing, load timing — so each run's hashes are checked against its own files instead).
 */
function comparable(manifest: Manifest) {
  return {
    counts: manifest.counts,
    artifacts: manifest.artifacts.map(({ bytes: _bytes, sha256: _sha, ...rest }) => rest),
    // The same files of the trail (action logs, checkpoints) whichever machine ran the sample.
    records: manifest.records.map(({ bytes: _bytes, sha256: _sha, ...rest }) => rest),
    samples: manifest.samples.map(({ result_sha256: _hash, finished_at: _at, ...rest }) => rest),
    problems: manifest.problems,
  };
}

test('sharding on one machine as the README shows it: both shards land, merge-reports finds the run id and lays the run out as one run would, verify guards combined.csv', async () => {
  const root = tempDir('bwa-local-shards-');
  const tasks = path.join(root, 'tasks');
  const reports = path.join(root, 'reports');
  writeTask(tasks, bookTask('books', await freePort(), writeSiteScript(root)), ['b1,b1', 'b2,b2', 'b3,b3']);
  const env = { AGENT_TASKS_DIR: tasks, AGENT_REPORTS_DIR: reports };
  const single = await runNested({
    args: ['--grep', '@books', '--trace=off', '--reporter=dot,./agent/report/reporter.ts'],
    env: { ...env, AGENT_RUN_ID: 'single' },
  });
  expect(single.code, single.output).toBe(0);
  for (const shard of ['1/2', '2/2']) {
    const run = await runNested({
      // The README's line, with the masking reporter named as this repository (no build of the package) names it.
      args: ['--grep', '@books', `--shard=${shard}`, '--reporter=./agent/report/mask-reporter.ts,blob', '--trace=off'],
      env: { ...env, AGENT_RUN_ID: 'audit-42' },
    });
    expect(run.code, run.output).toBe(0);
  }
  const blobs = path.join(reports, 'blob', 'audit-42');
  expect(fs.readdirSync(blobs).sort()).toEqual(['report-1-of-2.zip', 'report-2-of-2.zip']);

  // No AGENT_RUN_ID: the merged run takes the id its samples carry.
  const merge = await runNested({ command: ['merge-reports'], args: ['--reporter=./agent/report/reporter.ts', blobs], env });
  expect(merge.code, merge.output).toBe(0);
  expect(merge.output).toContain('bwa run audit-42: 3 samples — 3 done');
  const run = path.join(reports, 'runs', 'audit-42');
  const csv = fs.readFileSync(path.join(run, 'books', 'combined.csv'), 'utf8');
  expect(
    csv
      .trim()
      .split('\n')
      .slice(1)
      .map(line => line.split(',')[0]),
  ).toEqual(['b1', 'b2', 'b3']);
  const manifest = JSON.parse(fs.readFileSync(path.join(run, 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest.reports.map(r => r.path).sort()).toEqual(['books/combined.csv', 'index.html']);
  // The same combined.csv and manifest as the run on one machine; every screenshot copied out of the blob
  // reports with the bytes that were hashed.
  const singleRun = path.join(reports, 'runs', 'single');
  expect(csv).toBe(fs.readFileSync(path.join(singleRun, 'books', 'combined.csv'), 'utf8'));
  expect(comparable(manifest)).toEqual(comparable(JSON.parse(fs.readFileSync(path.join(singleRun, 'manifest.json'), 'utf8')) as Manifest));
  expect(manifest.artifacts).toHaveLength(3);
  for (const artifact of manifest.artifacts) {
    const bytes = fs.readFileSync(path.join(run, artifact.path));
    expect({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }, artifact.path).toEqual({
      bytes: artifact.bytes,
      sha256: artifact.sha256,
    });
  }
  expect(manifest.problems).toEqual([]);

  expect((await runBwa(['verify', 'audit-42'], env)).code).toBe(0);
  fs.writeFileSync(path.join(run, 'books', 'combined.csv'), csv.replace('9.99', '19.99'));
  const edited = await runBwa(['verify', 'audit-42'], env);
  expect(edited.code).toBe(1);
  expect(edited.stderr).toMatch(/books\/combined\.csv: sha256 \w+ differs from manifest\.json .* changed after the run/);
});

test('merge-reports over blobs of two runs without AGENT_RUN_ID stops and says how to name the run', async () => {
  const root = tempDir('bwa-two-runs-');
  const tasks = path.join(root, 'tasks');
  const reports = path.join(root, 'reports');
  const spec = bookTask('books', await freePort(), writeSiteScript(root));
  const blobs = path.join(root, 'all-blobs');
  for (const [id, row] of [
    ['first', 'b1,b1'],
    ['second', 'b2,b2'],
  ] as const) {
    writeTask(tasks, spec, [row]);
    const run = await runNested({
      args: ['--grep', '@books', '--reporter=blob', '--trace=off'],
      env: { AGENT_TASKS_DIR: tasks, AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: id, PLAYWRIGHT_BLOB_OUTPUT_FILE: path.join(blobs, `${id}.zip`) },
    });
    expect(run.code, run.output).toBe(0);
  }
  const merge = await runNested({
    command: ['merge-reports'],
    args: ['--reporter=./agent/report/reporter.ts', blobs],
    env: { AGENT_REPORTS_DIR: reports },
  });
  expect(merge.code, merge.output).toBe(1);
  expect(merge.output).toContain('the blob reports hold samples of 2 runs (first, second): set AGENT_RUN_ID=<id> to name the merged run');
});

test('a recipe typo leaves only its own task out: one failing test naming the file, the line, the step and the key; the other task runs', async () => {
  const root = tempDir('bwa-recipe-typo-');
  const tasks = path.join(root, 'tasks');
  const script = writeSiteScript(root);
  const port = await freePort();
  const spec = bookTask('typo', port, script);
  const recipe = spec.recipe as Array<Record<string, unknown>>;
  recipe[1] = { action: 'extract', feild: 'title', target: { role: 'heading' } };
  writeTask(tasks, spec, ['b1,b1']);
  writeTask(tasks, bookTask('books', port, script), ['b1,b1']);
  const env = { AGENT_TASKS_DIR: tasks, AGENT_REPORTS_DIR: path.join(root, 'reports'), AGENT_RUN_ID: 'typo' };
  const line =
    JSON.stringify(spec, null, 2)
      .split('\n')
      .findIndex(text => text.includes('"feild"')) + 1;
  const expected = [
    `${path.join(tasks, 'typo.json')}: invalid recipe`,
    `recipe[1].feild: unknown key(s) "feild" for extract (its arguments: field, target,`,
    `(line ${line})`,
    'recipe[1].field: Invalid input: expected string, received undefined',
  ];
  const run = await runNested({ args: ['--trace=off'], env });
  expect(run.code).toBe(1);
  for (const text of expected) expect(run.output).toContain(text);
  expect(run.output).toContain('typo › cannot load @typo');
  expect(run.output).toContain('bwa run typo: 1 sample — 1 done');
  const validate = await runBwa(['validate'], env);
  expect(validate.code).toBe(1);
  for (const text of expected) expect(validate.stdout).toContain(text);
});

test('AGENT_URL on a task whose start_url has no {{url}} is an error naming the task and what to do', async () => {
  const root = tempDir('bwa-agent-url-');
  const tasks = path.join(root, 'tasks');
  writeTask(tasks, bookTask('books', await freePort(), writeSiteScript(root)), ['b1,b1']);
  const run = await runNested({
    args: ['--grep', '@books', '--reporter=line'],
    env: { AGENT_TASKS_DIR: tasks, AGENT_REPORTS_DIR: path.join(root, 'reports'), AGENT_URL: 'http://127.0.0.1:1/anything' },
  });
  expect(run.code).toBe(1);
  expect(run.output).toContain('AGENT_URL is set, but task books cannot use it: its start_url');
  expect(run.output).toContain('has no {{url}} — run it without AGENT_URL');
});

test("the example project's config lists tasks only; the project's own tests are under npm test", async () => {
  const all = await runNested({ args: ['--list'] });
  expect(all.code, all.output).toBe(0);
  const listed = all.output.split('\n').filter(line => /^\s+\[\w+\] ›/.test(line));
  expect(listed.length).toBeGreaterThan(100);
  expect(listed.filter(line => !line.includes('[bwa] › ../agent/project/tasks.spec.ts'))).toEqual([]);
  const grep = await runNested({ args: ['--list', '--grep', 'tracker'] });
  expect(
    grep.output
      .split('\n')
      .filter(line => /^\s+\[\w+\] ›/.test(line))
      .every(line => line.includes('[bwa] › ../agent/project/tasks.spec.ts:') && line.includes('tracker_tickets')),
  ).toBe(true);
  // The own config holds them in two projects: tests that start whole runs (like this one) and in-process ones.
  const own = await runNested({
    args: ['-c', 'playwright.self.config.ts', '--list', 'specs/self/user/local-shards.spec.ts', 'specs/self/task/samples.spec.ts'],
  });
  expect(own.output).toContain('[self-runs] › specs/self/user/local-shards.spec.ts');
  expect(own.output).toContain('[self] › specs/self/task/samples.spec.ts');
});

test('AGENT_FAIL_ON=needs_review makes a needs_review sample fail its test (and the exit code); its record still says needs_review', async () => {
  const root = tempDir('bwa-fail-on-');
  const tasks = path.join(root, 'tasks');
  const reports = path.join(root, 'reports');
  writeTask(tasks, bookTask('books', await freePort(), writeSiteScript(root)), ['nodata,nodata']);
  const env = { AGENT_TASKS_DIR: tasks, AGENT_REPORTS_DIR: reports, AGENT_RETRIES: '0' };
  const lenient = await runNested({ args: ['--grep', '@books', '--trace=off'], env: { ...env, AGENT_RUN_ID: 'lenient' } });
  expect(lenient.code, lenient.output).toBe(0);
  const strict = await runNested({
    args: ['--grep', '@books', '--trace=off'],
    env: { ...env, AGENT_RUN_ID: 'strict', AGENT_FAIL_ON: 'needs_review' },
  });
  expect(strict.code, strict.output).toBe(1);
  expect(strict.output).toContain('nodata: needs_review — recipe step 3 (extract price ← css=.price) failed: No element matches css=.price');
  const record = JSON.parse(fs.readFileSync(path.join(reports, 'runs', 'strict', 'books', 'nodata', 'result.json'), 'utf8'));
  expect(record.status).toBe('needs_review');
});
