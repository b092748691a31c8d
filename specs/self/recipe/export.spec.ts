import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../../agent/cli';
import { RECIPE_FORMAT } from '../../../agent/recipe/entry';
import { SHIPPED_VALUE_FILES } from '../../../agent/recipe/shipped-values';
import { bundledTask } from '../helpers/agent-env';
import { withEnv } from '../helpers/env';
import { PROJECT_ROOT, runNested } from '../helpers/nested-run';
import { peopleTruth, writeEntry, writeExportedSpecConfig } from './helpers';
import { SITE } from '../helpers/sites';

const SAMPLES = ['ada', 'grace', 'petrov-j', 'esther_petrov'];

/** What `bwa recipe compile` wrote for the search flow of specs/self/recipe/compile.spec.ts. */
const SEARCH_RECIPE = [
  { action: 'goto', url: `${SITE.people}/search?q={{username}}`, expect_url: '^http://127\\.0\\.0\\.1:4101/search(?:[?#].*)?$' },
  {
    action: 'click',
    target: { css: '[data-login="{{username}}"] a.member-name' },
    expect_url: '^http://127\\.0\\.0\\.1:4101/people/[^/]+(?:[?#].*)?$',
  },
  { action: 'screenshot', label: 'profile' },
  { action: 'extract', field: 'display_name', target: { css: '[itemprop="name"]' }, pattern: '^\\s*(.+)\\s*$' },
  { action: 'extract', field: 'bio', missing: 'null', target: { css: 'div.p-note div' }, pattern: '^\\s*(.+)\\s*$' },
  { action: 'extract', field: 'company', missing: 'null', target: { css: 'span.p-org' }, pattern: '^\\s*(.+)\\s*$' },
  { action: 'extract', field: 'location', missing: 'null', target: { css: 'span.p-label' }, pattern: '^\\s*(.+)\\s*$' },
  { action: 'click', target: { text: 'Profile stats', exact: true } },
  { action: 'extract', field: 'followers', type: 'integer', target: { css: 'li.followers-exact' }, pattern: '([\\d,]+) followers' },
  { action: 'scroll', direction: 'down', optional: true },
  { action: 'extract', field: 'pinned', target: { css: 'span.repo' }, all: true, missing: 'null' },
  { action: 'done', extracted: {} },
];

test('bwa recipe export writes a plain Playwright spec that passes on the fixture site, with the same values', async () => {
  // Three Playwright runs of its own (two listings and the exported spec's run): ~20 s alone, more beside the suite.
  test.setTimeout(120_000);
  const task = bundledTask('people_profile', { task_id: 'people_search', start_url: `${SITE.people}/`, recipe: undefined });
  writeEntry(task, {
    format: RECIPE_FORMAT,
    task_id: 'people_search',
    task_hash: task.hash,
    revision: 1,
    compiled_at: '2026-01-01T00:00:00.000Z',
    source: { run_id: 'r', sample_id: 'ada' },
    steps: SEARCH_RECIPE,
    fields: {},
    verified_on: [],
    notes: [],
    history: [],
  });
  const tasksDir = path.dirname(task.file);
  fs.mkdirSync(path.join(tasksDir, 'inputs'), { recursive: true });
  fs.writeFileSync(path.join(tasksDir, 'inputs', 'people_search.csv'), `sample_id,username\n${SAMPLES.map(s => `${s},${s}`).join('\n')}\n`);

  // Under the project, so the spec's own imports (@playwright/test, csv-parse) resolve as they would for a user.
  const outDir = fs.mkdtempSync(path.join(PROJECT_ROOT, 'specs', 'generated', '.test-'));
  try {
    const out = path.join(outDir, 'people_search.spec.ts');
    expect(await withEnv({ AGENT_TASKS_DIR: tasksDir }, () => main(['recipe', 'export', 'people_search', '--out', out]))).toBe(0);
    const code = fs.readFileSync(out, 'utf8');
    // Nothing of bwa but its value rules, copied beside the spec: values are read as bwa reads them.
    const imports = [...code.matchAll(/^import .* from '([^']+)';$/gm)].map(match => match[1]);
    expect(imports.filter(from => !/^(@playwright\/test|csv-parse\/sync|node:\w+|\.\/bwa-values\/[\w-]+)$/.test(from!))).toEqual([]);
    expect(imports).toContain('./bwa-values/read-field');
    expect(fs.readdirSync(path.join(outDir, 'bwa-values')).sort()).toEqual([...SHIPPED_VALUE_FILES].sort());
    // A column the CSV lacks throws in the exported spec too, naming it: never an empty value.
    expect(code).toContain("tab.goto(`http://127.0.0.1:4101/search?q=${column(row, 'username')}`)");
    expect(code).not.toMatch(/row\[[^\]]+\] \?\? ''/);
    expect(code).toContain("tab.getByText('Profile stats', { exact: true })");

    writeExportedSpecConfig(outDir, { workers: 2, viewport: { width: 1280, height: 900 } });
    // Neither of the project's configs picks an exported spec up: not the tasks' (the user's), not the self tests'.
    for (const config of ['playwright.config.ts', 'playwright.self.config.ts']) {
      const listed = await runNested({ args: ['-c', config, '--list'], env: { AGENT_TASKS_DIR: tasksDir } });
      expect(listed.code, listed.output.slice(-2000)).toBe(0);
      expect(listed.output).not.toContain('people_search.spec.ts');
      expect(listed.output).toContain(config === 'playwright.config.ts' ? 'tasks.spec.ts' : 'export.spec.ts');
    }

    const run = await runNested({ args: ['--config', path.join(outDir, 'playwright.config.js'), '--reporter=json'] });
    expect(run.code, run.output.slice(-3000)).toBe(0);
    const report = JSON.parse(run.output.slice(run.output.indexOf('{')));
    const tests = report.suites.flatMap((s: { suites: Array<{ specs: unknown[] }> }) => s.suites.flatMap(inner => inner.specs)) as Array<{
      title: string;
      tests: Array<{ results: Array<{ status: string; attachments: Array<{ name: string; body?: string }> }> }>;
    }>;
    expect(tests.map(t => t.title).sort()).toEqual([...SAMPLES].sort());
    const people = await peopleTruth();
    for (const spec of tests) {
      const result = spec.tests[0]!.results[0]!;
      expect(result.status).toBe('passed');
      const extracted = JSON.parse(Buffer.from(result.attachments.find(a => a.name === 'extracted.json')!.body!, 'base64').toString('utf8'));
      const person = people[spec.title]!;
      expect(extracted).toEqual({ ...person, pinned: person.pinned.length ? person.pinned : null });
      expect(result.attachments.some(a => a.name === 'profile')).toBe(true);
    }
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
});
