import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Result } from '../../../agent/evidence/result-schema';
import type { Manifest } from '../../../agent/report/write-run';
import { runNested } from '../helpers/nested-run';
import { tempDir } from '../helpers/temp';
import { htmlReportTests } from '../report/report-data';
import { bookTask, freePort, writeSiteScript, writeTask } from './own-site';

/**
 * Resuming a run after editing a task, as the README tells a user to (same AGENT_RUN_ID): the samples the edit
 * affects run again and the run says so; the others are reported as resumed in every report; a resume that selects
 * one sample keeps the rest of the run in its evidence, and names a combined.csv that holds two versions of a task.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(300_000);

const RUN = 'edited';
let root = '';
let tasks = '';
let reports = '';
const runFolder = () => path.join(reports, 'runs', RUN);
const result = (task: string, sample: string): Result => JSON.parse(fs.readFileSync(path.join(runFolder(), task, sample, 'result.json'), 'utf8'));
const env = () => ({ AGENT_TASKS_DIR: tasks, AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: RUN, ANTHROPIC_API_KEY: undefined });

/** The books task with its price read by this pattern (every pattern here reads the same values). */
function editBooks(pricePattern: string): void {
  const file = path.join(tasks, 'books.json');
  const spec = JSON.parse(fs.readFileSync(file, 'utf8'));
  spec.recipe[2].pattern = pricePattern;
  fs.writeFileSync(file, JSON.stringify(spec, null, 2));
}

test.beforeAll(async () => {
  root = tempDir('bwa-resume-edit-');
  tasks = path.join(root, 'tasks');
  reports = path.join(root, 'reports');
  const script = writeSiteScript(root);
  const port = await freePort();
  writeTask(tasks, bookTask('books', port, script), ['b1,b1', 'b2,b2']);
  writeTask(tasks, bookTask('covers', port, script), ['c1,b3']);
  const first = await runNested({ args: ['--trace=off'], env: env() });
  expect(first.code, first.output).toBe(0);
});

test('after an edit, a resume runs again the samples of the edited task, says so once, and reports the others as resumed', async () => {
  const before = result('books', 'b1');
  const coverDone = result('covers', 'c1').finished_at;
  editBooks('Price: \\$([\\d.]+)');
  const resumed = await runNested({ args: ['--trace=off'], env: env() });
  expect(resumed.code, resumed.output).toBe(0);
  expect(resumed.output.match(/its recipe changed since/g)).toHaveLength(1);
  expect(resumed.output).toContain(
    'bwa: task books: its recipe changed since 2 of its samples were done in this run: they run again (AGENT_RESUME_CHANGED=keep would keep them)',
  );
  for (const sample of ['b1', 'b2']) {
    const again = result('books', sample);
    expect(again.recipe_hash).not.toBe(before.recipe_hash);
    expect(again.notes.join('\n')).toContain('run again: its recipe changed since it was done in an earlier invocation of this run');
  }
  expect(result('books', 'b1').extracted.price?.value).toBe('9.99');
  expect(resumed.output).toContain('covers/c1 done (resumed)');
  expect(result('covers', 'c1').finished_at).toBe(coverDone);

  // The HTML report lists the resumed sample as a passed test labelled @resumed (a skipped one would be hidden).
  const html = htmlReportTests(path.join(reports, 'html')) as unknown as Array<{ title: string; tags: string[]; outcome: string }>;
  expect(html.map(t => t.title).sort()).toEqual(['b1', 'b2', 'c1']);
  expect(html.find(t => t.title === 'c1')).toMatchObject({ outcome: 'expected', tags: expect.arrayContaining(['@resumed']) });
  expect(html.find(t => t.title === 'b1')?.tags).not.toContain('@resumed');
  const index = fs.readFileSync(path.join(runFolder(), 'index.html'), 'utf8');
  const row = (sample: string) => [...index.matchAll(/<tr[^>]*data-sample="([^"]+)"[^]*?<\/tr>/g)].find(m => m[1] === sample)?.[0] ?? '';
  expect(row('c1')).toContain('<small class="resumed">resumed</small>');
  expect(row('b1')).not.toContain('class="resumed"');
});

test('a resume that selects one sample keeps the whole run in its evidence, and names a combined.csv holding two versions of a task', async () => {
  editBooks('\\$([\\d.]+)');
  const one = await runNested({ args: ['--trace=off', '--grep', 'b1'], env: env() });
  expect(one.code, one.output).toBe(0);
  expect(one.output).toContain('bwa: task books: its recipe changed since 1 of its samples were done in this run: they run again');
  const manifest = JSON.parse(fs.readFileSync(path.join(runFolder(), 'manifest.json'), 'utf8')) as Manifest;
  expect(manifest.samples.map(s => `${s.task_id}/${s.sample_id}${s.resumed ? ' resumed' : ''}`)).toEqual([
    'books/b1',
    'books/b2 resumed',
    'covers/c1 resumed',
  ]);
  const csv = fs.readFileSync(path.join(runFolder(), 'books', 'combined.csv'), 'utf8');
  expect(csv).toMatch(/^b1,done,Dune,9\.99,/m);
  expect(csv).toMatch(/^b2,done,Emma,4\.50,/m);
  const mixed = manifest.problems.find(p => p.startsWith('books/combined.csv mixes 2 versions of the task'));
  expect(mixed, manifest.problems.join('\n')).toMatch(
    /recipe \w{8}: b1; spec \w{8}, recipe \w{8}: b2\)|recipe \w{8}: b2; spec \w{8}, recipe \w{8}: b1\)/,
  );
  expect(one.output).toContain(`! ${mixed}`);
  const index = fs.readFileSync(path.join(runFolder(), 'index.html'), 'utf8');
  for (const sample of ['b1', 'b2', 'c1']) expect(index).toContain(`data-sample="${sample}"`);
  expect(index).toContain('resumed — from an earlier invocation; not selected in this one');
  expect(index).toContain('books/combined.csv mixes 2 versions of the task');
});
