import { expect, test } from '@playwright/test';
import * as path from 'node:path';
import { runNested } from '../helpers/nested-run';
import { taskJson, tempDir, writeFiles } from '../helpers/temp';

test('one test per (task, sample), titled task › sample and tagged @task_id, in CSV order', async () => {
  const listed = await runNested({ args: ['--project=bwa', '--list', '--reporter=json'], env: { AGENT_REPORTS_DIR: tempDir() } });
  expect(listed.code, listed.output).toBe(0);
  const report = JSON.parse(listed.output.slice(listed.output.indexOf('{')));
  const generated = report.suites.find((s: { title: string }) => s.title.endsWith('tasks.spec.ts'));
  const suite = generated.suites.find((s: { title: string }) => s.title === 'people_profile');
  const specs = suite.specs.map((s: { title: string; tags: string[] }) => `${s.title} ${s.tags.join(' ')}`);
  expect(specs).toEqual(['ada', 'grace', 'linus', 'margaret', 'alan', 'barbara'].map(s => `${s} people_profile`));
});

test('a task that cannot load is one failing test naming file, line and key, not retried; every other task lists beside it', async () => {
  const tasks = tempDir('bwa-bad-tasks-');
  const broken = { ...taskJson({ task_id: 'broken' }), max_steps: 'lots' };
  writeFiles(tasks, {
    'broken.json': JSON.stringify(broken, null, 2),
    'inputs/broken.csv': 'sample_id,username\nada,ada\n',
    'fine.json': JSON.stringify(taskJson({ task_id: 'fine' })),
    'inputs/fine.csv': 'sample_id,username\nada,ada\ngrace,grace\n',
  });
  const env = { AGENT_TASKS_DIR: tasks, AGENT_REPORTS_DIR: tempDir() };
  const listed = await runNested({ args: ['--project=bwa', '--grep', '@fine', '--list'], env });
  expect(listed.code, listed.output).toBe(0);
  expect(listed.output).toMatch(/› fine › ada\n.*› fine › grace\n\s*Total: 2 tests in 1 file/);
  expect(listed.output).not.toContain('broken');

  const run = await runNested({ args: ['--project=bwa', '--grep', '@broken', '--retries=2'], env });
  expect(run.code).toBe(1);
  const line =
    JSON.stringify(broken, null, 2)
      .split('\n')
      .findIndex(text => text.includes('"max_steps"')) + 1;
  expect(run.output).toContain(`› broken › cannot load @broken`);
  const invalid = `BWA_TASK_SPEC: ${path.join(tasks, 'broken.json')}: invalid task spec`;
  const summaryAt = run.output.indexOf('bwa: 1 test(s) ended before writing a result:');
  expect(summaryAt, run.output).toBeGreaterThan(0);
  const failures = run.output.slice(0, summaryAt);
  for (const reason of [invalid, `• max_steps: Invalid input: expected number, received string (line ${line})`])
    expect(failures.split(reason), reason).toHaveLength(2);
  // bwa's run summary names the task that ran nothing, with the first line of why.
  expect(run.output.slice(summaryAt)).toContain(`✗ broken › cannot load: Error: ${invalid}`);
  expect(run.output).not.toContain('Retry #');
  // The reason, not a code frame of the generator that reports it.
  expect(run.output).not.toMatch(/^\s+>?\s*\d+ \|/m);
  expect(run.output).not.toMatch(/^\s+at /m);
  expect(run.output).toContain('1 failed');
});
