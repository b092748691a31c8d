import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../../agent/cli';
import { specCode } from '../../../agent/recipe/spec-code';
import { PEOPLESEARCH_ACCOUNT, PEOPLESEARCH_ENV } from '../../../fixtures/sites/peoplesearch/credentials';
import { bundledTask } from '../helpers/agent-env';
import { withEnv } from '../helpers/env';
import { PROJECT_ROOT, runNested } from '../helpers/nested-run';
import { SITE, SITE_HOST } from '../helpers/sites';
import { writeExportedSpecConfig } from './helpers';

const PORT = new URL(SITE.peoplesearch).port;

/**
 * The sign-in form, the user name scoped to the row's start page (the task names it) and the password to the one
 * host its secret_sites names: the row that starts on another name of the same server may type the first, not the second.
 */
const SIGN_IN = [
  { action: 'type', target: { label: 'Email' }, text: `{{secret:${PEOPLESEARCH_ACCOUNT.userEnv.replace(/^SECRET_/, '')}}}` },
  { action: 'type', target: { label: 'Password' }, text: `{{secret:${PEOPLESEARCH_ACCOUNT.passwordEnv.replace(/^SECRET_/, '')}}}` },
  { action: 'click', target: { role: 'button', name: 'Sign in' }, expect_url: '/feed$' },
  { action: 'extract', field: 'display_name', target: { css: 'h1' } },
  { action: 'done', extracted: {} },
];

test('an exported spec types a secret only on its sites, through the handoff: never as an argument, never elsewhere', async () => {
  test.setTimeout(120_000);
  const task = bundledTask('people_profile', {
    task_id: 'sign_in_export',
    start_url: '{{start}}',
    allowed_domains: [SITE_HOST.peoplesearch, `localhost:${PORT}`],
    secret_sites: { PEOPLESEARCH_PASSWORD: [SITE_HOST.peoplesearch] },
    required_fields: ['display_name'],
    required_artifacts: [],
    recipe: SIGN_IN,
  });
  const tasksDir = path.dirname(task.file);
  fs.mkdirSync(path.join(tasksDir, 'inputs'), { recursive: true });
  fs.writeFileSync(
    path.join(tasksDir, 'inputs', 'sign_in_export.csv'),
    `sample_id,start\nhere,${SITE.peoplesearch}/login\nelsewhere,http://localhost:${PORT}/login\n`,
  );

  const outDir = fs.mkdtempSync(path.join(PROJECT_ROOT, 'specs', 'generated', '.test-'));
  try {
    const out = path.join(outDir, 'sign_in_export.spec.ts');
    expect(await withEnv({ AGENT_TASKS_DIR: tasksDir }, () => main(['recipe', 'export', 'sign_in_export', '--out', out]))).toBe(0);
    const code = fs.readFileSync(out, 'utf8');
    expect(code).toContain(
      `const SECRET_SITES: Record<string, { sites: string[]; start: boolean }> = ${JSON.stringify({
        PEOPLESEARCH_USER: { sites: [], start: true },
        PEOPLESEARCH_PASSWORD: { sites: [SITE_HOST.peoplesearch], start: false },
      })};`,
    );
    // Never a fill with the value: Playwright records a call's arguments and names steps after them.
    expect(code).not.toMatch(/\.fill\(`/);

    writeExportedSpecConfig(outDir, { workers: 2 });
    const run = await runNested({ args: ['--config', path.join(outDir, 'playwright.config.js'), '--reporter=json'], env: PEOPLESEARCH_ENV });
    const report = JSON.parse(run.output.slice(run.output.indexOf('{')));
    const results = Object.fromEntries(
      report.suites
        .flatMap((s: { suites: Array<{ specs: unknown[] }> }) => s.suites.flatMap(inner => inner.specs))
        .map((spec: { title: string; tests: Array<{ results: Array<{ status: string; errors: Array<{ message: string }> }> }> }) => [
          spec.title,
          spec.tests[0]!.results[0]!,
        ]),
    ) as Record<string, { status: string; errors: Array<{ message: string }>; attachments: Array<{ name: string; body?: string }> }>;

    // Signed in: the values typed were the secrets, whole.
    expect(results.here!.status, JSON.stringify(results.here!.errors)).toBe('passed');
    const extracted = JSON.parse(Buffer.from(results.here!.attachments.find(a => a.name === 'extracted.json')!.body!, 'base64').toString('utf8'));
    expect(extracted).toEqual({ display_name: 'Welcome back' });

    // The user name was typed on the row's own start page; the password was refused there, by name only.
    expect(results.elsewhere!.status).toBe('failed');
    const message = results.elsewhere!.errors.map(e => e.message).join('\n');
    expect(message).toContain(
      `refused to type {{secret:PEOPLESEARCH_PASSWORD}} into a field on localhost:${PORT}: it may be typed only on ${SITE_HOST.peoplesearch}`,
    );
    for (const value of Object.values(PEOPLESEARCH_ENV)) expect(run.output).not.toContain(value);
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
});

test('the exporter puts a secret only into the text a step types: one in a URL or a locator is refused, by step', () => {
  const task = bundledTask('people_profile').spec;
  const exportOf = (steps: unknown[]) => () => specCode({ task, steps: steps as never, csvFromSpec: 'x.csv', inputsFromSpec: 'x', origin: 'test' });
  expect(exportOf([{ action: 'goto', url: 'https://example.test/?token={{secret:TOKEN}}' }])).toThrow(
    'recipe step 1 (goto) names {{secret:TOKEN}} outside the text it types: bwa types a secret only into a field',
  );
  expect(
    exportOf([
      { action: 'click', target: { text: 'ok' } },
      { action: 'click', target: { text: '{{secret:PIN}}' } },
    ]),
  ).toThrow('recipe step 2 (click)');
  expect(() =>
    specCode({
      task: { ...task, start_url: 'https://example.test/{{secret:TOKEN}}' },
      steps: [],
      csvFromSpec: 'x.csv',
      inputsFromSpec: 'x',
      origin: 'test',
    }),
  ).toThrow("the start_url names a secret: bwa fills only the row's columns there");
});
