import { expect, test } from '@playwright/test';
import { chromiumPath } from '../../../agent/browser/chromium';
import { runNested } from '../helpers/nested-run';
import { tempDir, writeFiles } from '../helpers/temp';

test('one test per (task, sample), titled task › sample and tagged @task_id, in CSV order', async () => {
  const listed = await runNested({ args: ['--project=tasks', '--list', '--reporter=json'], env: { AGENT_REPORTS_DIR: tempDir() } });
  expect(listed.code, listed.output).toBe(0);
  const report = JSON.parse(listed.output.slice(listed.output.indexOf('{')));
  const generated = report.suites.find((s: { title: string }) => s.title.endsWith('tasks.spec.ts'));
  const suite = generated.suites.find((s: { title: string }) => s.title === 'people_profile');
  const specs = suite.specs.map((s: { title: string; tags: string[] }) => `${s.title} ${s.tags.join(' ')}`);
  expect(specs).toEqual(['ada', 'grace', 'linus', 'margaret', 'alan', 'barbara'].map(s => `${s} people_profile`));
});

test('a bad task spec stops the run before any test starts, naming file and field', async () => {
  const tasks = tempDir('bwa-bad-tasks-');
  writeFiles(tasks, {
    'broken.json': JSON.stringify({
      task_id: 'broken',
      start_url: 'x',
      system_prompt: 'x',
      goal: 'x',
      output_schema: {},
      allowed_domains: ['a'],
      max_steps: 'lots',
    }),
  });
  const run = await runNested({ args: ['--project=tasks'], env: { AGENT_TASKS_DIR: tasks, AGENT_REPORTS_DIR: tempDir() } });
  expect(run.code).not.toBe(0);
  expect(run.output).toContain('broken.json: invalid task spec');
  expect(run.output).toMatch(/• max_steps: .*expected number/);
  expect(run.output).not.toContain('passed');
});

test('a missing Chromium gives one clear error naming the apt package', () => {
  expect(() => chromiumPath({ AGENT_CHROMIUM_PATH: '/nonexistent/chromium' })).toThrow(
    /Chromium not found at \/nonexistent\/chromium\. Install Debian's Chromium with `apt-get install -y chromium`/,
  );
});
