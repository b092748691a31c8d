import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { wireConfig } from '../../../agent/cli/config-wiring';
import { initProject } from '../../../agent/cli/init-project';
import { loadTaskFile } from '../../../agent/task/load-task';
import { runBwaInProcess } from '../helpers/cli';
import { taskJson, tempDir, writeFiles } from '../helpers/temp';

test('wiring a config: TypeScript, ESM without semicolons, an exported variable, CommonJS — the expression wrapped, the import added, nothing else touched', () => {
  const ts = [
    "import { defineConfig, devices } from '@playwright/test';",
    '',
    'export default defineConfig({',
    "  reporter: [['html'], ['json', { outputFile: 'r.json' }]],",
    "  use: { baseURL: `http://${'host'}` }, // a note with ; and )",
    "  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],",
    '});',
    '',
  ].join('\n');
  expect(wireConfig(ts)).toEqual({
    kind: 'wired',
    text: `import { withBwa } from 'bwa';\n${ts.replace('export default defineConfig({', 'export default withBwa(defineConfig({').replace('});\n', '}));\n')}`,
  });
  expect(
    wireConfig("import { defineConfig } from '@playwright/test'\nexport default defineConfig({ testDir: 'e2e' })\nfunction helper() {}\n"),
  ).toEqual({
    kind: 'wired',
    text: "import { withBwa } from 'bwa';\nimport { defineConfig } from '@playwright/test'\nexport default withBwa(defineConfig({ testDir: 'e2e' }))\nfunction helper() {}\n",
  });
  expect(wireConfig('const config = defineConfig({});\nexport default config;\n')).toEqual({
    kind: 'wired',
    text: "import { withBwa } from 'bwa';\n\nconst config = defineConfig({});\nexport default withBwa(config);\n",
  });
  expect(wireConfig("// @ts-check\nconst { defineConfig } = require('@playwright/test');\nmodule.exports = defineConfig({ retries: 2 });\n")).toEqual(
    {
      kind: 'wired',
      text: "// @ts-check\nconst { withBwa } = require('bwa');\nconst { defineConfig } = require('@playwright/test');\nmodule.exports = withBwa(defineConfig({ retries: 2 }));\n",
    },
  );
});

test('a config it cannot edit for certain is left alone, with the lines to add; one already wired says so', () => {
  for (const [text, why] of [
    ['export default function config() { return {}; }\n', 'declaration'],
    ['export default a;\nmodule.exports = b;\n', 'more than one place'],
    ["import x from 'y';\nconst config = {};\n", 'no `export default'],
    ['export default defineConfig({ a: [1, 2 }\n', 'balanced'],
  ] as const) {
    const wiring = wireConfig(text);
    expect(wiring, text).toMatchObject({ kind: 'manual', why: expect.stringContaining(why) });
    expect(wiring.kind === 'manual' && wiring.lines[0]).toBe("import { withBwa } from 'bwa';");
  }
  expect(wireConfig("import { withBwa } from 'bwa';\nexport default withBwa(defineConfig({}));\n").kind).toBe('already');
  // A mention in a comment is not a call.
  expect(wireConfig('// wrap in withBwa(…) some day\nexport default defineConfig({});\n').kind).toBe('wired');
});

test('bwa init in a project: wires the config, writes a valid example no run loads, ignores evidence and sign-in states; again, nothing changes', () => {
  const dir = tempDir('bwa-init-');
  writeFiles(dir, {
    'playwright.config.mjs': "import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: 'e2e' });\n",
    '.gitignore': 'node_modules',
  });
  const first = initProject(dir);
  expect(first.changed).toBe(true);
  expect(first.lines.join('\n')).toMatch(/✓ playwright.config.mjs[\s\S]*✓ tasks\/[\s\S]*✓ .gitignore: now also ignores reports\/ and .auth\//);
  expect(fs.readFileSync(path.join(dir, 'playwright.config.mjs'), 'utf8')).toContain('export default withBwa(defineConfig({ testDir: ');
  expect(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8')).toBe(
    'node_modules\n# bwa: run evidence, and signed-in browser states (credentials)\nreports/\n.auth/\n',
  );
  // The example is a task the loader accepts once copied under its own name.
  const example = JSON.parse(fs.readFileSync(path.join(dir, 'tasks', '_example.json'), 'utf8'));
  writeFiles(dir, { 'copy/example.json': JSON.stringify(example) });
  expect(loadTaskFile(path.join(dir, 'copy', 'example.json')).spec.required_fields).toEqual(['heading']);
  const files = fs.readdirSync(dir, { recursive: true }).map(String).sort();
  const again = initProject(dir);
  expect(again).toEqual({
    changed: false,
    lines: [expect.stringContaining('nothing to do'), expect.stringContaining('nothing to do'), expect.stringContaining('nothing to do')],
  });
  expect(fs.readdirSync(dir, { recursive: true }).map(String).sort()).toEqual(files);
});

test('bwa init never overwrites: an edited example and a project with tasks of its own stay as they are', () => {
  const dir = tempDir('bwa-init-');
  writeFiles(dir, {
    'playwright.config.ts': 'export default {};\n',
    'tasks/mine.json': '{"task_id": "mine"}\n',
    'tasks/_example.json': '{"edited": true}\n',
  });
  const init = initProject(dir);
  expect(init.lines[1]).toContain('tasks/: nothing to do (it holds tasks already)');
  expect(fs.readFileSync(path.join(dir, 'tasks', '_example.json'), 'utf8')).toBe('{"edited": true}\n');
  expect(fs.existsSync(path.join(dir, 'tasks', 'inputs'))).toBe(false);
});

test('a project without a Playwright config gets one with bwa added', () => {
  const dir = tempDir('bwa-init-');
  const init = initProject(dir);
  expect(init.lines[0]).toContain('wrote playwright.config.ts');
  expect(fs.readFileSync(path.join(dir, 'playwright.config.ts'), 'utf8')).toContain('export default withBwa(');
  expect(wireConfig(fs.readFileSync(path.join(dir, 'playwright.config.ts'), 'utf8')).kind).toBe('already');
});

test('a config in a subfolder: bwa init there names it instead of starting a second project; with --config, tasks/ and .gitignore go beside it', () => {
  const dir = tempDir('bwa-init-');
  writeFiles(dir, { 'e2e/playwright.config.ts': 'export default defineConfig({});\n' });
  expect(() => initProject(dir)).toThrow(
    'no Playwright config here, but e2e/playwright.config.ts: run `npx bwa init --config e2e/playwright.config.ts`',
  );
  expect(fs.existsSync(path.join(dir, 'playwright.config.ts'))).toBe(false);
  const init = initProject(dir, 'e2e/playwright.config.ts');
  expect(init.lines).toEqual([
    expect.stringContaining('✓ e2e/playwright.config.ts: your config, wrapped'),
    expect.stringContaining('✓ e2e/tasks/: an example task'),
    expect.stringContaining('✓ e2e/.gitignore: written'),
  ]);
  expect(fs.existsSync(path.join(dir, 'tasks'))).toBe(false);
});

test('a config exported inside a block is named as such, and left alone', () => {
  const wiring = wireConfig('if (process.env.A) {\n  module.exports = defineConfig({ a: 1 });\n} else {\n  module.exports = defineConfig({});\n}\n');
  expect(wiring).toMatchObject({ kind: 'manual', why: 'it exports its config inside a block (an if/else, a function)' });
});

test('any command but init works in the project of the config -c names (a file or its folder), from any folder', async () => {
  const dir = tempDir('bwa-project-option-');
  writeFiles(dir, {
    'e2e/playwright.config.ts': 'export default withBwa(defineConfig({}));\n',
    'e2e/tasks/fine.json': JSON.stringify(taskJson({ task_id: 'fine' })),
    'e2e/tasks/inputs/fine.csv': 'sample_id,username\nada,ada\n',
  });
  const clean = { AGENT_PROJECT_DIR: undefined, AGENT_TASKS_DIR: undefined };
  for (const given of [['-c', path.join(dir, 'e2e/playwright.config.ts')], [`--config=${path.join(dir, 'e2e')}`]]) {
    const validate = await runBwaInProcess(['validate', ...given], clean);
    expect(validate.code, validate.printed).toBe(0);
    expect(validate.printed).toContain(path.join(dir, 'e2e', 'tasks', 'fine.json'));
  }
  const missing = await runBwaInProcess(['validate', '-c', path.join(dir, 'nowhere.config.ts')], clean);
  expect([missing.code, missing.stderr]).toEqual([
    2,
    expect.stringContaining(`--config ${path.join(dir, 'nowhere.config.ts')}: no such file or folder`),
  ]);
  const bare = await runBwaInProcess(['validate', '-c'], clean);
  expect([bare.code, bare.stderr]).toEqual([2, expect.stringContaining('-c takes the Playwright config')]);
});
