import { expect, test } from '@playwright/test';
import * as path from 'node:path';
import { settings } from '../../../agent/settings';
import { loadSuite } from '../../../agent/task/suite';
import { restoreEnv } from '../helpers/agent-env';
import { taskJson, tempDir, writeFiles } from '../helpers/temp';

test('a missing samples CSV: the hint offers AGENT_URL only to a task whose start_url takes {{url}}', () => {
  const dir = tempDir('bwa-csv-hint-');
  writeFiles(dir, { 'demo.json': JSON.stringify(taskJson()) });
  expect(() => loadSuite({ tasksDir: dir })).toThrow(`${path.join(dir, 'inputs', 'demo.csv')}: not found (samples for task demo) — write it with the header "sample_id,username" and one row per sample`);
  expect(() => loadSuite({ tasksDir: dir })).not.toThrow(/AGENT_URL/);

  const adHoc = tempDir('bwa-csv-hint-url-');
  writeFiles(adHoc, { 'demo.json': JSON.stringify(taskJson({ start_url: '{{url}}', input_schema: { url: 'string' } })) });
  expect(() => loadSuite({ tasksDir: adHoc })).toThrow('write it with the header "sample_id,url" and one row per sample, or set AGENT_URL=<url> for one ad-hoc sample');
});

test('AGENT_URL: a task with {{url}} gets the ad-hoc sample; another is one error naming it', () => {
  const dir = tempDir('bwa-agent-url-unit-');
  writeFiles(dir, { 'demo.json': JSON.stringify(taskJson()), 'pages.json': JSON.stringify(taskJson({ task_id: 'pages', start_url: '{{url}}', input_schema: { url: 'string' } })) });
  const [demo, pages] = loadSuite({ tasksDir: dir, adHocUrl: 'http://127.0.0.1:4101/people/ada' });
  expect(demo?.samples).toEqual([]);
  expect(demo?.error).toMatch(/^AGENT_URL is set, but task demo cannot use it: its start_url \(http:\/\/127\.0\.0\.1:4101\/people\/\{\{username\}\}\) has no \{\{url\}\}/);
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
    expect(() => settings.failOn).toThrow('AGENT_FAIL_ON lists statuses from partial_success, needs_review, comma-separated (got "needs-review")');
  } finally {
    restoreEnv(saved);
  }
});
