import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { settings } from '../../../agent/settings';
import { loadSuite } from '../../../agent/task/suite';
import { PROJECT_ROOT } from '../helpers/nested-run';
import { taskJson, tempDir, writeFiles } from '../helpers/temp';
import { runBwa } from '../helpers/cli-process';
import { runBwaInProcess } from '../helpers/cli';
import { withEnv } from '../helpers/env';
import { SITE } from '../helpers/sites';

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
  const [demo, pages] = loadSuite({ tasksDir: dir, adHocUrl: `${SITE.people}/people/ada` });
  expect(demo?.samples).toEqual([]);
  expect(demo?.error).toMatch(
    /^AGENT_URL is set, but task demo cannot use it: its start_url \(http:\/\/127\.0\.0\.1:4101\/people\/\{\{username\}\}\) has no \{\{url\}\}/,
  );
  expect(pages?.error).toBeUndefined();
  expect(pages?.samples.map(s => s.row.url)).toEqual([`${SITE.people}/people/ada`]);
});

test('AGENT_FAIL_ON is one option for the exit-code policy: listed statuses fail their test, a typo is an error', () => {
  withEnv({ AGENT_FAIL_ON: undefined }, () => {
    expect(settings.failOn).toEqual([]);
    process.env.AGENT_FAIL_ON = 'needs_review, partial_success';
    expect(settings.failOn).toEqual(['needs_review', 'partial_success']);
    process.env.AGENT_FAIL_ON = 'needs-review';
    expect(() => settings.failOn).toThrow(
      'AGENT_FAIL_ON must be a comma-separated list of needs_review or partial_success ("needs-review" is not one of them) (got "needs-review")',
    );
  });
});

test('bwa validate lists the tasks that cannot run yet: model only without a key, a sign-in secret not set', async () => {
  const dir = tempDir('bwa-validate-lists-');
  writeFiles(dir, {
    'modelonly.json': JSON.stringify(taskJson({ task_id: 'modelonly' })),
    'inputs/modelonly.csv': 'sample_id,username\nada,ada\n',
    'signed.json': JSON.stringify(taskJson({ task_id: 'signed', auth_profile: 'shop', recipe: [{ action: 'screenshot', label: 'page' }] })),
    'inputs/signed.csv': 'sample_id,username\nada,ada\n',
    'auth/shop.json': JSON.stringify({
      start_url: `${SITE.people}/login`,
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
  expect(run.stdout).toContain('modelonly                1 sample · model only');
  expect(run.stdout).toContain('  ✗ BWA_NO_DECIDER: task modelonly has no recipe and no ANTHROPIC_API_KEY is set');
  expect(run.stdout).toContain('  ✗ auth_profile "shop" needs SECRET_SHOP_PASSWORD (set in .env)');
  expect(run.stdout).toContain('2 task(s) cannot run as things stand');
});

test('bwa validate decides whether a task can run, and who decides it, by the rule the run uses: a key keeps the recipe; AGENT_DECIDER=model without a key stops a task with a recipe too', async () => {
  const dir = tempDir('bwa-validate-decider-');
  writeFiles(dir, {
    'recorded.json': JSON.stringify(taskJson({ task_id: 'recorded', recipe: [{ action: 'screenshot', label: 'page' }] })),
    'inputs/recorded.csv': 'sample_id,username\nada,ada\n',
  });
  const auto = await runBwaInProcess(['validate'], { AGENT_TASKS_DIR: dir, ANTHROPIC_API_KEY: undefined, AGENT_DECIDER: undefined });
  expect(auto.printed).not.toContain('✗');
  expect(auto.printed).toContain('recorded                 1 sample · recipe (its own), no model call · ');
  // A key does not make a working recipe cost a model call: the model is paid only to heal a step that fails.
  const keyed = await runBwaInProcess(['validate'], { AGENT_TASKS_DIR: dir, ANTHROPIC_API_KEY: 'sk-test', AGENT_DECIDER: undefined });
  expect(keyed.printed).toContain('recorded                 1 sample · recipe (its own), a model call only where a step fails (self-heal) · ');
  const forced = await runBwaInProcess(['validate'], { AGENT_TASKS_DIR: dir, ANTHROPIC_API_KEY: 'sk-test', AGENT_DECIDER: 'model' });
  expect(forced.printed).toContain('recorded                 1 sample · model on every step (AGENT_DECIDER=model: the recipe is not used) · ');
  const model = await runBwaInProcess(['validate'], { AGENT_TASKS_DIR: dir, ANTHROPIC_API_KEY: undefined, AGENT_DECIDER: 'model' });
  expect(model.printed).toContain(
    '  ✗ BWA_NO_API_KEY: AGENT_DECIDER=model needs ANTHROPIC_API_KEY (in the environment or .env); or run with AGENT_DECIDER=recipe',
  );
  expect(model.printed).toContain('1 task(s) cannot run as things stand');
});

/** Where bwa's own words point a reader: `docs/<page>.md`, `docs/<page>.md#anchor`, `README.md#anchor`, `README.md ("Section")`. */
function docPointers(text: string): Array<{ file: string; anchor?: string }> {
  const pointers = [...text.matchAll(/\b(README\.md|docs\/[\w-]+\.md)(?:#([\w-]+)|\s*\(\s*"([^"]+)"\s*\))?/g)].map(m => ({
    file: m[1]!,
    anchor: m[2] ?? (m[3] ? slug(m[3]) : undefined),
  }));
  return pointers.concat([...text.matchAll(/\bREADME\s+"([^"]+)"/g)].map(m => ({ file: 'README.md', anchor: slug(m[1]!) })));
}

/** GitHub's anchor for a heading. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(path.join(PROJECT_ROOT, file), 'utf8');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map(m => slug(m[1]!)));
}

test('every doc page and README section bwa points a reader at exists: its help, its messages, the specs it writes', async () => {
  const help = await runBwaInProcess(['--help']);
  expect(help.code).toBe(0);
  const sources = [path.join(PROJECT_ROOT, 'bin/bwa.cjs'), ...walk(path.join(PROJECT_ROOT, 'agent'))].map(f => fs.readFileSync(f, 'utf8'));
  const pointers = docPointers([help.printed, ...sources].join('\n'));
  expect(docPointers(help.printed).map(p => p.file)).toEqual(expect.arrayContaining(['docs/environment.md', 'README.md']));
  expect(pointers.length).toBeGreaterThan(5);
  for (const { file, anchor } of pointers) {
    expect(fs.existsSync(path.join(PROJECT_ROOT, file)), file).toBe(true);
    if (anchor) expect([...anchorsOf(file)], `${file}#${anchor}`).toContain(anchor);
  }
});

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

test('bwa plan without a key points at bwa init and the README section that walks through it', async () => {
  const plan = await runBwaInProcess(['plan', 'Go to example.com and extract the title'], { ANTHROPIC_API_KEY: undefined });
  expect(plan.code).toBe(1);
  expect(plan.printed).toContain('npx bwa init <task_id> --url');
  expect(plan.printed).toContain('README.md#your-first-task-on-your-own-site');
});

test("bwa recipe show shows the spec's own recipe when none is compiled; only a task with neither is an error", async () => {
  const dir = tempDir('bwa-recipe-show-');
  writeFiles(dir, {
    'own.json': JSON.stringify(
      taskJson({
        task_id: 'own',
        recipe: [
          { action: 'screenshot', label: 'page' },
          { action: 'extract', field: 'name', target: { css: 'h1', first: true } },
        ],
      }),
    ),
    'none.json': JSON.stringify(taskJson({ task_id: 'none' })),
  });
  const own = await runBwaInProcess(['recipe', 'show', 'own'], { AGENT_TASKS_DIR: dir });
  expect(own.code, own.printed).toBe(0);
  expect(own.printed).toContain(`own: the spec's own recipe (`);
  expect(own.printed).toContain(
    '2 steps — replayed with no model call while its steps work; with a key the model heals a step that fails (not with AGENT_DECIDER=recipe); AGENT_DECIDER=model does not use it',
  );
  expect(own.printed).toContain('   1. screenshot "page"');
  expect(own.printed).toContain('   2. extract name ← css=h1 (first)');
  const none = await runBwaInProcess(['recipe', 'show', 'none'], { AGENT_TASKS_DIR: dir });
  expect(none.code).toBe(1);
  expect(none.printed).toMatch(/^none: no recipe — .*none\.json has none, and none is compiled at .*: add "recipe" to the spec, or record one/);
});

test('bwa validate names a task that cannot load (file, line, key) beside the ones that can, and exits 1', async () => {
  const dir = tempDir('bwa-validate-broken-');
  const broken = taskJson({ task_id: 'typo', output_schema: { name: 'strng | null' } });
  writeFiles(dir, {
    'typo.json': JSON.stringify(broken, null, 2),
    'inputs/typo.csv': 'sample_id,username\nada,ada\n',
    'fine.json': JSON.stringify(taskJson({ task_id: 'fine', recipe: [{ action: 'screenshot', label: 'page' }] })),
    'inputs/fine.csv': 'sample_id,username\nada,ada\n',
  });
  const line =
    JSON.stringify(broken, null, 2)
      .split('\n')
      .findIndex(text => text.includes('"name"')) + 1;
  const run = await runBwaInProcess(['validate'], { AGENT_TASKS_DIR: dir, ANTHROPIC_API_KEY: undefined });
  expect(run.code).toBe(1);
  expect(run.printed).toContain(`typo                     cannot load · ${path.join(dir, 'typo.json')}`);
  expect(run.printed).toMatch(
    new RegExp(`• output_schema\\.name: "strng \\| null": "strng" is not a type; did you mean "string"\\?.* \\(line ${line}\\)`),
  );
  expect(run.printed).toContain(`fine                     1 sample · recipe (its own), no model call · ${path.join(dir, 'fine.json')}`);
  expect(run.printed).toContain('1 task(s) cannot load: a run leaves them out');
});
