import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { Manifest } from '../../../agent/report/write-run';
import { runNested } from '../helpers/nested-run';
import { tempDir, writeFiles } from '../helpers/temp';
import { htmlReportEntries, htmlReportTests } from '../report/report-data';
import { bookTask, freePort, writeSiteScript, writeTask } from './own-site';
import { createHash } from 'node:crypto';

/**
 * One plain `npx playwright test` (no --project) over a user's tasks, where most things go wrong at once: every
 * selected sample must still be in the evidence, each failure must stay with its own task, and the reports must
 * tell needs_review apart from done.
 */
test.describe.configure({ mode: 'serial' });

const RUN = 'mixed';
let reports = '';
let tasks = '';
let output = '';
let code: number | null = null;
const runFolder = () => path.join(reports, 'runs', RUN);
const result = (task: string, sample: string) => JSON.parse(fs.readFileSync(path.join(runFolder(), task, sample, 'result.json'), 'utf8'));

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(300_000);
  const root = tempDir('bwa-mixed-');
  tasks = path.join(root, 'tasks');
  reports = path.join(root, 'reports');
  const script = writeSiteScript(root);
  const [sitePort, busyPort, deadPort] = [await freePort(), await freePort(), await freePort()];
  // Something else holds the port the "busy" task's server wants: it answers, but not as that server's health page.
  const squatter = http.createServer((_req, res) => res.writeHead(404).end('not this')).listen(busyPort, '127.0.0.1');
  const site = { script, port: sitePort };
  writeTask(tasks, bookTask('books', site.port, site.script), ['b1,b1', 'b2,b2', 'nodata,nodata']);
  writeTask(tasks, bookTask('nokey', site.port, site.script, { recipe: undefined }), ['n1,b1', 'n2,b2']);
  writeTask(tasks, bookTask('locked', site.port, site.script, { auth_profile: 'shop' }), ['l1,b1', 'l2,b2']);
  writeTask(tasks, bookTask('busy', busyPort, site.script), ['u1,b1', 'u2,b2']);
  writeTask(tasks, bookTask('dead', deadPort, site.script, { web_servers: [] }), ['d1,b1', 'd2,b2', 'd3,b3', 'd4,b1']);
  writeFiles(tasks, {
    'auth/shop.json': JSON.stringify({
      start_url: `http://127.0.0.1:${site.port}/login`,
      steps: [
        { action: 'type', target: { label: 'Password' }, text: '{{secret:SHOP_PASSWORD}}' },
        { action: 'click', target: { role: 'button', name: 'Sign in' } },
      ],
      check: { url: '/account$' },
    }),
  });
  try {
    const run = await runNested({
      // Playwright's retries as a user has them (AGENT_RETRIES, 1): only what may change on a retry is retried.
      args: ['--workers=2', '--trace=off'],
      env: {
        AGENT_TASKS_DIR: tasks,
        AGENT_REPORTS_DIR: reports,
        AGENT_RUN_ID: RUN,
        AGENT_STOP_AFTER: '2',
        SECRET_SHOP_PASSWORD: 'not-the-password',
        ANTHROPIC_API_KEY: undefined,
        AGENT_AUTH_DIR: path.join(root, '.auth'),
      },
    });
    output = run.output;
    code = run.code;
  } finally {
    squatter.close();
  }
});

test('every selected sample is in the evidence: result.json, combined.csv, manifest, index.html and the summary', () => {
  expect(code, output).toBe(1);
  const manifest = JSON.parse(fs.readFileSync(path.join(runFolder(), 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest.counts).toMatchObject({ total: 13, done: 2, needs_review: 1, failed: 10 });
  expect(output).toContain(`bwa run ${RUN}: 13 samples — 2 done, 0 partial, 1 needs review, 10 failed`);
  const index = fs.readFileSync(path.join(runFolder(), 'index.html'), 'utf8');
  for (const [task, samples] of Object.entries({
    books: ['b1', 'b2', 'nodata'],
    nokey: ['n1', 'n2'],
    locked: ['l1', 'l2'],
    busy: ['u1', 'u2'],
    dead: ['d1', 'd2', 'd3', 'd4'],
  })) {
    const csv = fs.readFileSync(path.join(runFolder(), task, 'combined.csv'), 'utf8');
    for (const sample of samples) {
      expect(result(task, sample).sample_id).toBe(sample);
      expect(csv, task).toMatch(new RegExp(`^${sample},`, 'm'));
      expect(manifest.samples.some(s => s.task_id === task && s.sample_id === sample)).toBe(true);
      expect(index).toContain(sample);
    }
  }
});

test('a failure before the loop is recorded with its reason, and stays with its own task', () => {
  expect(result('books', 'b1')).toMatchObject({ status: 'done', extracted: { title: { value: 'Dune' }, price: { value: '9.99' } } });
  expect(result('books', 'nodata').status).toBe('needs_review');
  for (const sample of ['n1', 'n2'])
    expect(result('nokey', sample)).toMatchObject({ status: 'failed', error: expect.stringContaining('has no recipe and no ANTHROPIC_API_KEY') });
  for (const sample of ['l1', 'l2'])
    expect(result('locked', sample)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/auth_profile "shop": sign-in check failed .*wrong credentials/),
    });
  for (const sample of ['u1', 'u2'])
    expect(result('busy', sample)).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/task busy needs the server at http:\/\/127\.0\.0\.1:\d+\/health: .*EADDRINUSE/),
    });
  // A failure known before the sample starts is not retried, and is one line: its reason, no code frame, no record files.
  for (const [task, sample] of [
    ['nokey', 'n1'],
    ['locked', 'l1'],
    ['busy', 'u1'],
  ] as const)
    expect(result(task, sample).attempt, `${task}/${sample}`).toBe(0);
  const failures = output.slice(output.indexOf('  1) ['));
  expect(failures).toMatch(
    /› nokey › n1 @nokey ─+\n\n\s+Error: n1: failed — task nokey has no recipe and no ANTHROPIC_API_KEY is set[^\n]*\n\n\s+Error Context: [^\n]+\n\n\s+\d+\) /,
  );
  expect(failures).not.toMatch(/^\s+at /m);
  // A start page that did not answer may answer on a retry.
  expect(result('dead', 'd1').attempt).toBe(1);
  // The own site was started for the tasks that need it; no stand-in site of the project was.
  expect(output).toMatch(/bwa: started node .*own-site\.cjs/);
  expect(output).not.toContain('fixtures/serve.ts');
});

test('a dead start site stops its task early: after AGENT_STOP_AFTER samples in a row, the rest fail at once', () => {
  const dead = ['d1', 'd2', 'd3', 'd4'].map(sample => result('dead', sample));
  expect(dead.every(r => r.status === 'failed')).toBe(true);
  const stopped = dead.filter(r => String(r.error).startsWith('stopped early'));
  // Two workers may both be on a start page when the second failure lands: at least one of four is never started.
  expect(stopped.length).toBeGreaterThanOrEqual(1);
  expect(stopped[0].error).toMatch(/could not be reached for \d samples in a row .*resume with the same AGENT_RUN_ID/);
  expect(stopped[0].steps).toBe(0);
});

test('statuses are visible: a needs_review sample is labelled in the HTML report list and named in Allure', () => {
  const tests = htmlReportTests(path.join(reports, 'html')) as unknown as Array<{ title: string; tags: string[] }>;
  expect(tests.find(t => t.title === 'nodata')?.tags).toContain('@needs_review');
  expect(tests.find(t => t.title === 'b1')?.tags).not.toContain('@needs_review');
  const allure = path.join(reports, 'allure-results', RUN);
  const names = fs
    .readdirSync(allure)
    .filter(f => f.endsWith('-result.json'))
    .map(f => JSON.parse(fs.readFileSync(path.join(allure, f), 'utf8')).name as string);
  expect(names).toContain('nodata [needs_review]');
  expect(names).toContain('b1');
  // Per run: this run's test output lives under its own id.
  expect(fs.existsSync(path.join(reports, 'test-results', RUN))).toBe(true);
});

test('reports stay put: --list and a run that finds no tests leave the HTML report alone', async () => {
  const hash = () =>
    createHash('sha256')
      .update(fs.readFileSync(path.join(reports, 'html', 'index.html')))
      .digest('hex');
  const before = hash();
  const env = { AGENT_TASKS_DIR: tasks, AGENT_REPORTS_DIR: reports };
  expect((await runNested({ args: ['--list'], env })).code).toBe(0);
  const none = await runNested({ args: ['--grep', '@no_such_task'], env });
  expect(none.output).toContain('No tests found');
  expect(hash()).toBe(before);
  expect(htmlReportEntries(path.join(reports, 'html')).size).toBeGreaterThan(0);
});
