import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { CHROMIUM_ARGS, DEBIAN_CHROMIUM } from '../../../agent/browser/chromium';
import { env } from '../../../agent/env/read';
import { SHIPPED_SOURCES, SHIPPED_VALUE_FILES } from '../../../agent/recipe/shipped-values';
import { packedTarball, runIn } from '../helpers/package-build';
import { PROJECT_ROOT } from '../helpers/nested-run';

// bwa as a team adds it to the Playwright project they already have: packed, installed from the tarball, wired by
// `npx bwa init`, a task added by hand, everything run with `npx playwright test`. One packing per suite run.
test.describe.configure({ mode: 'serial' });

const PLAYWRIGHT_VERSION: string = require('@playwright/test/package.json').version;
const BWA: { name: string; version: string } = require('../../../package.json');

/** The user's shell: none of this suite's settings; their config names the browser (this machine has Debian's). */
const USER_ENV = {
  AGENT_REPORTS_DIR: undefined,
  AGENT_TASKS_DIR: undefined,
  AGENT_AUTH_DIR: undefined,
  AGENT_ENV_FILE: undefined,
  AGENT_CHROMIUM_PATH: undefined,
  AGENT_PROJECT_DIR: undefined,
};

const USER_CONFIG = `import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './tests',
  reporter: [['list'], ['json', { outputFile: 'test-report.json' }]],
  use: { launchOptions: { executablePath: ${JSON.stringify(env.AGENT_CHROMIUM_PATH ?? DEBIAN_CHROMIUM)}, args: ${JSON.stringify(CHROMIUM_ARGS)} } },
});
`;

const USER_TEST = `import { test, expect } from '@playwright/test';

test('the team’s own test', async ({ page }) => {
  await page.setContent('<h1>ours</h1>');
  await expect(page.getByRole('heading')).toHaveText('ours');
});
`;

const PRODUCT_PAGE = (name: string, price: string) =>
  `<!doctype html><html><head><title>${name}</title></head><body><h1>${name}</h1><p class="price">Price: $${price}</p></body></html>`;

let project: string;
let tarball: { file: string; packOutput: string };
let server: http.Server;
let origin: string;
let installed: Map<string, string>;

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(600_000);
  tarball = await packedTarball();
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'bwa-user-project-'));
  fs.mkdirSync(path.join(project, 'tests'));
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'team-e2e', private: true }, null, 2));
  fs.writeFileSync(path.join(project, 'playwright.config.ts'), USER_CONFIG);
  fs.writeFileSync(path.join(project, 'tests', 'own.spec.ts'), USER_TEST);
  // From npm's cache only: the suite's own `npm ci` filled it with every package bwa needs.
  const install = await runIn(
    project,
    'npm',
    ['install', '--save-dev', '--offline', '--no-audit', '--no-fund', `@playwright/test@${PLAYWRIGHT_VERSION}`, tarball.file],
    USER_ENV,
  );
  expect(install.code, install.output).toBe(0);
  expect(install.output, 'installing bwa runs no install script').not.toMatch(/install-scripts|prepare|postinstall/i);
  server = http.createServer((request, response) => {
    const name = /\/products\/(\w+)/.exec(request.url ?? '')?.[1];
    response.writeHead(name ? 200 : 404, { 'content-type': 'text/html' });
    response.end(name ? PRODUCT_PAGE(name[0]!.toUpperCase() + name.slice(1), name === 'kettle' ? '24.90' : '3.50') : 'not found');
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  installed = listFiles(path.join(project, 'node_modules'));
});

test.afterAll(async () => {
  await new Promise(resolve => server?.close(resolve));
});

test('the tarball: compiled JavaScript with declarations for every export, a bin, a peer Playwright, and none of the self tests, benches or fixtures', () => {
  const packed = JSON.parse(tarball.packOutput.slice(tarball.packOutput.indexOf('['))) as Array<{
    files: Array<{ path: string }>;
    size: number;
    entryCount: number;
  }>;
  const files = packed[0]!.files.map(f => f.path);
  test.info().annotations.push({
    type: 'package',
    description: `${path.basename(tarball.file)}: ${packed[0]!.size} bytes packed, ${packed[0]!.entryCount} files`,
  });
  expect(files.filter(file => /^(specs|bench|fixtures|tasks|reports)\//.test(file))).toEqual([]);
  expect(files.filter(file => file.endsWith('.ts') && !file.endsWith('.d.ts') && !file.startsWith('agent/'))).toEqual([]);
  const pkg = JSON.parse(fs.readFileSync(path.join(project, 'node_modules', BWA.name, 'package.json'), 'utf8'));
  for (const [entry, target] of Object.entries<string | Record<string, string>>(pkg.exports))
    for (const file of typeof target === 'string' ? [target] : Object.values(target))
      expect(files, `${entry} → ${file}`).toContain(file.replace(/^\.\//, ''));
  expect(Object.keys(pkg.exports)).toEqual(expect.arrayContaining(['.', './test', './reporter', './mask-reporter']));
  // `bwa recipe export` copies these sources beside the spec it writes: they ship as TypeScript.
  expect(files).toEqual(expect.arrayContaining(SHIPPED_VALUE_FILES.map(name => `agent/${SHIPPED_SOURCES[name]}/${name}`)));
  expect(pkg.peerDependencies['@playwright/test']).toMatch(/^>=1\.\d+/);
  expect(Object.keys(pkg.dependencies)).not.toContain('@playwright/test');
  expect(Object.keys(pkg.dependencies).filter(name => ['tsx', 'esbuild', 'typescript'].includes(name))).toEqual([]);
  expect(Object.keys(pkg.scripts ?? {}).filter(name => /^(pre|post)?install$|^prepare$/.test(name))).toEqual([]);
  expect(pkg).toMatchObject({ name: BWA.name, version: BWA.version, license: expect.any(String), repository: expect.anything() });
  // The user's Playwright is the one that runs: no second copy under bwa.
  expect(fs.existsSync(path.join(project, 'node_modules', BWA.name, 'node_modules', '@playwright'))).toBe(false);
});

test('npx bwa init wires the config and keeps all of it, creates tasks/ with an example, and changes nothing the second time', async () => {
  const first = await runIn(project, 'npx', ['bwa', 'init'], USER_ENV);
  expect(first.code, first.output).toBe(0);
  const config = fs.readFileSync(path.join(project, 'playwright.config.ts'), 'utf8');
  expect(config).toContain("import { withBwa } from 'bwa';");
  expect(config).toContain('export default withBwa(defineConfig({');
  expect(config.replace("import { withBwa } from 'bwa';\n", '').replace('withBwa(defineConfig(', 'defineConfig(').replace('}));', '});')).toBe(
    USER_CONFIG,
  );
  expect(fs.existsSync(path.join(project, 'tasks', '_example.json'))).toBe(true);
  expect(fs.readFileSync(path.join(project, '.gitignore'), 'utf8')).toMatch(/^reports\/$[\s\S]*^\.auth\/$/m);
  const before = snapshot(project);
  const second = await runIn(project, 'npx', ['bwa', 'init'], USER_ENV);
  expect(second.code, second.output).toBe(0);
  expect(second.stdout).toContain('Nothing changed');
  expect(snapshot(project)).toEqual(before);
});

test('a task with a recipe and a hand-written agent test run beside the team’s own test; the evidence lies in their project and verifies; node_modules is untouched', async ({}, testInfo) => {
  testInfo.setTimeout(300_000);
  const init = await runIn(
    project,
    'npx',
    ['bwa', 'init', 'product_prices', '--url', `${origin}/products/{{product}}`, '--field', 'name', '--field', 'price:number'],
    USER_ENV,
  );
  expect(init.code, init.output).toBe(0);
  // What the user does next: point each locator at its element, list the pages.
  const taskFile = path.join(project, 'tasks', 'product_prices.json');
  const spec = JSON.parse(fs.readFileSync(taskFile, 'utf8'));
  expect(spec.required_fields).toEqual(['name', 'price']);
  expect(fs.existsSync(path.resolve(path.dirname(taskFile), spec.$schema)), `$schema ${spec.$schema}`).toBe(true);
  spec.recipe[1].target = { role: 'heading' };
  spec.recipe[2].target = { css: '.price' };
  spec.recipe[2].pattern = '([\\d.]+)';
  fs.writeFileSync(taskFile, JSON.stringify(spec, null, 2));
  fs.writeFileSync(path.join(project, 'tasks', 'inputs', 'product_prices.csv'), 'sample_id,product\nkettle,kettle\nmug,mug\n');
  fs.writeFileSync(
    path.join(project, 'tests', 'agent.spec.ts'),
    `import { test, expect } from 'bwa/test';

test('kettle price through the agent', async ({ agent }) => {
  const { status, values, provenance } = await agent.run({
    goal: 'Read the product name and its price',
    output: { name: 'string', price: 'number' },
    startUrl: '${origin}/products/kettle',
    recipe: [
      { action: 'screenshot', label: 'page' },
      { action: 'extract', field: 'name', target: { role: 'heading' } },
      { action: 'extract', field: 'price', target: { css: '.price' }, pattern: '([\\\\d.]+)', type: 'number' },
    ],
  });
  expect(status).toBe('done');
  expect(values).toEqual({ name: 'Kettle', price: 24.9 });
  expect(provenance.price.source).toBe('dom');
});
`,
  );
  const validate = await runIn(project, 'npx', ['bwa', 'validate'], USER_ENV);
  expect(validate.code, validate.output).toBe(0);

  const listed = await runIn(project, 'npx', ['playwright', 'test', '--project=bwa', '--list'], USER_ENV);
  expect(listed.stdout.match(/^\s+\[bwa\] › .*$/gm)?.map(line => line.replace(/.* › /, ''))).toEqual(['kettle', 'mug']);

  const run = await runIn(project, 'npx', ['playwright', 'test'], USER_ENV);
  expect(run.code, run.output).toBe(0);
  const report = JSON.parse(fs.readFileSync(path.join(project, 'test-report.json'), 'utf8'));
  const outcomes = Object.fromEntries(
    allSpecs(report.suites).map(s => [s.title, s.tests.map(t => `${t.projectName}:${t.results.at(-1)?.status}`).join()]),
  );
  expect(outcomes).toEqual({
    'the team’s own test': ':passed',
    'kettle price through the agent': ':passed',
    kettle: 'bwa:passed',
    mug: 'bwa:passed',
  });

  const runId = /bwa run (\S+):/.exec(run.stdout)?.[1];
  expect(runId, run.stdout).toBeTruthy();
  const runDir = path.join(project, 'reports', 'runs', runId!);
  const result = (task: string, sample: string) => JSON.parse(fs.readFileSync(path.join(runDir, task, sample, 'result.json'), 'utf8'));
  expect(result('product_prices', 'kettle')).toMatchObject({ status: 'done', extracted: { name: { value: 'Kettle' }, price: { value: 24.9 } } });
  expect(result('product_prices', 'mug')).toMatchObject({ status: 'done', extracted: { name: { value: 'Mug' }, price: { value: 3.5 } } });
  expect(result('agent', 'kettle_price_through_the_agent')).toMatchObject({ status: 'done', extracted: { price: { value: 24.9 } } });
  expect(fs.readFileSync(path.join(runDir, 'product_prices', 'combined.csv'), 'utf8')).toContain('kettle,done');

  const verify = await runIn(project, 'npx', ['bwa', 'verify', runId!], USER_ENV);
  expect(verify.code, verify.output).toBe(0);
  expect(fs.existsSync(path.join(PROJECT_ROOT, 'reports', 'runs', runId!)), 'nothing in bwa’s own checkout').toBe(false);
  expect(diff(installed, listFiles(path.join(project, 'node_modules'))), 'files under node_modules added, changed or removed by the runs').toEqual(
    [],
  );
});

type SpecEntry = { title: string; tests: Array<{ projectName: string; results: Array<{ status: string }> }> };
type SuiteEntry = { specs?: SpecEntry[]; suites?: SuiteEntry[] };

function allSpecs(suites: SuiteEntry[]): SpecEntry[] {
  return suites.flatMap(suite => [...(suite.specs ?? []), ...allSpecs(suite.suites ?? [])]);
}

/** Every file under a folder, by path: its size and modification time. */
function listFiles(dir: string, into = new Map<string, string>(), root = dir): Map<string, string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) listFiles(file, into, root);
    else {
      const stat = fs.lstatSync(file);
      into.set(path.relative(root, file), `${stat.size}:${stat.mtimeMs}`);
    }
  }
  return into;
}

function diff(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = [...after].filter(([file, stamp]) => before.get(file) !== stamp).map(([file]) => file);
  return [...changed, ...[...before.keys()].filter(file => !after.has(file))].sort();
}

/** The project's files outside node_modules, with their contents: what `bwa init` could have changed. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [file] of listFiles(dir)) if (!file.startsWith(`node_modules${path.sep}`)) files[file] = fs.readFileSync(path.join(dir, file), 'utf8');
  return files;
}
