import { expect, test } from '@playwright/test';
import * as path from 'node:path';
import { settings } from '../../../agent/settings';
import { loadSuite } from '../../../agent/task/suite';
import { restoreEnv } from '../helpers/agent-env';
import { taskJson, tempDir, writeFiles } from '../helpers/temp';
import { runBwa } from '../report/cli-run';

test('a missing samples CSV: the hint offers AGENT_URL only to a task whose start_url takes {{url}}', () => {
  const dir = tempDir('bwa-csv-hint-');
  writeFiles(dir, { 'demo.json': JSON.stringify(taskJson()) });
  expect(() => loadSuite({ tasksDir: dir })).toThrow(
    `${path.join(dir, 'inputs', 'demo.csv')}: not found (samples for task demo) — write it with the header "sample_id,username" and one row per sample`,
  );
  expect(() => loadSuite({ tasksDir: dir })).not.toThrow(/AGENT_URL/);

  const adHoc = tempDir('bwa-csv-hint-url-');
  writeFiles(adHoc, { 'demo.json': JSON.stringify(taskJson({ start_url: '{{url}}', input_schema: { url: 'string' } })) });
  expect(() => loadSuite({ tasksDir: adHoc })).toThrow(
    'write it with the header "sample_id,url" and one row per sample, or set AGENT_URL=<url> for one ad-hoc sample',
  );
});

test('AGENT_URL: a task with {{url}} gets the ad-hoc sample; another is one error naming it', () => {
  const dir = tempDir('bwa-agent-url-unit-');
  writeFiles(dir, {
    'demo.json': JSON.stringify(taskJson()),
    'pages.json': JSON.stringify(taskJson({ task_id: 'pages', start_url: '{{url}}', input_schema: { url: 'string' } })),
  });
  const [demo, pages] = loadSuite({ tasksDir: dir, adHocUrl: 'http://127.0.0.1:4101/people/ada' });
  expect(demo?.samples).toEqual([]);
  expect(demo?.error).toMatch(
    /^AGENT_URL is set, but task demo cannot use it: its start_url \(http:\/\/127\.0\.0\.1:4101\/people\/\{\{username\}\}\) has no \{\{url\}\}/,
  );
  expect(pages?.error).toBeUndefined();
  expect(pages?.samples.map(s => s.row.url)).toEqual(['http://127.0.0.1:4101/people/ada']);
});

test('AGENT_FAIL_ON is one option for the exit-code policy: listed statuses fail their test, a typo is an error', () => {
  const saved = { AGENT_FAIL_ON: process.env.AGENT_FAIL_ON };
  try {
    delete process.env.AGENT_FAIL_ON;
    expect(settings.failOn).toEqual([]);
    process.env.AGENT_FAIL_ON = 'needs_review, partial_success';
    expect(settings.failOn).toEqual(['needs_review', 'partial_success']);
    process.env.AGENT_FAIL_ON = 'needs-review';
    expect(() => settings.failOn).toThrow(
      'AGENT_FAIL_ON must be a comma-separated list of needs_review or partial_success ("needs-review" is not one of them) (got "needs-review")',
    );
  } finally {
    restoreEnv(saved);
  }
});

test('bwa validate lists the tasks that cannot run yet: model only without a key, a sign-in secret not set', async () => {
  const dir = tempDir('bwa-validate-lists-');
  writeFiles(dir, {
    'modelonly.json': JSON.stringify(taskJson({ task_id: 'modelonly' })),
    'inputs/modelonly.csv': 'sample_id,username\nada,ada\n',
    'signed.json': JSON.stringify(taskJson({ task_id: 'signed', auth_profile: 'shop', recipe: [{ action: 'screenshot', label: 'page' }] })),
    'inputs/signed.csv': 'sample_id,username\nada,ada\n',
    'auth/shop.json': JSON.stringify({
      start_url: 'http://127.0.0.1:4101/login',
      steps: [{ action: 'type', target: { label: 'Password' }, text: '{{secret:SHOP_PASSWORD}}' }],
      check: { url: '/account' },
    }),
  });
  const run = await runBwa(['validate'], {
    AGENT_TASKS_DIR: dir,
    ANTHROPIC_API_KEY: undefined,
    SECRET_SHOP_PASSWORD: undefined,
    AGENT_AUTH_DIR: tempDir('bwa-validate-auth-'),
  });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('modelonly                1 samples · model only');
  expect(run.stdout).toContain('  ✗ model only: cannot run without ANTHROPIC_API_KEY');
  expect(run.stdout).toContain('  ✗ auth_profile "shop" needs SECRET_SHOP_PASSWORD (set in .env)');
  expect(run.stdout).toContain('2 task(s) cannot run as things stand');
});
