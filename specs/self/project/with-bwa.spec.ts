import { defineConfig, expect, test, type ReporterDescription } from '@playwright/test';
import * as path from 'node:path';
import { withBwa } from '../../../agent/project/with-bwa';
import { configDir } from '../../../agent/env/config-dir';
import { BWA_PROJECTS, PROJECT_FILES } from '../../../agent/project/names';
import { envOf } from '../../../agent/env/read';
import { settings } from '../../../agent/settings';
import { setEnv, useEnv } from '../helpers/env';
import { tempDir } from '../helpers/temp';

// Each test is a fresh main process as far as withBwa can tell: nothing it passes on to workers is set yet.
useEnv(() => ({
  AGENT_PROJECT_DIR: tempDir('bwa-project-'),
  AGENT_RUN_ID: undefined,
  AGENT_INVOCATION_ID: undefined,
  AGENT_TASKS_DIR: undefined,
  AGENT_REPORTS_DIR: undefined,
  AGENT_AUTH_DIR: undefined,
  AGENT_BROWSER_WS: undefined,
  PLAYWRIGHT_BLOB_OUTPUT_FILE: undefined,
}));

const theirs = defineConfig({
  testDir: './e2e',
  timeout: 10_000,
  reporter: [
    ['html', { outputFolder: 'their-html' }],
    ['json', { outputFile: 'out.json' }],
  ],
  globalSetup: './their-setup.ts',
  globalTeardown: './their-teardown.ts',
  use: { baseURL: 'https://app.example', channel: 'chrome', viewport: { width: 800, height: 600 } },
  projects: [
    { name: 'setup', testMatch: /.*\.setup\.ts/ },
    { name: 'chromium', dependencies: ['setup'], use: { storageState: '.auth/user.json' } },
  ],
});

test('everything of theirs stays: testDir, projects, reporters (after the one that masks secrets), use, timeout; their globalSetup runs before bwa’s, their teardown as it was', () => {
  const config = withBwa(theirs);
  expect(config.testDir).toBe('./e2e');
  expect(config.timeout).toBe(10_000);
  expect(config.globalTeardown).toBe('./their-teardown.ts');
  expect(config.globalSetup).toEqual(['./their-setup.ts', path.resolve(__dirname, '../../../agent/setup/global-setup.ts')]);
  // Their projects see the same `use` as before: the top level's, under each project's own.
  for (const [index, project] of config.projects!.slice(0, 2).entries()) {
    const before = theirs.projects![index]!;
    expect({ ...project, use: undefined }).toEqual({ ...before, use: undefined });
    expect({ ...config.use, ...project.use }).toEqual({ ...theirs.use, ...before.use });
  }
  // Secrets are masked out of each finished test before any reporter of theirs reads it.
  expect(config.reporter![0]).toEqual([path.resolve(__dirname, '../../../agent/report/mask-reporter.ts')]);
  expect(config.reporter!.slice(1, 3)).toEqual(theirs.reporter);
  expect(config.reporter).toContainEqual([path.resolve(__dirname, '../../../agent/report/reporter.ts')]);
});

test('bwa adds its project (the generated samples, then the batch judge) with its own output folder, and the user’s browser', () => {
  const config = withBwa(theirs);
  const [tasks, judge] = config.projects!.slice(2);
  expect(tasks).toMatchObject({
    name: BWA_PROJECTS.tasks,
    testDir: PROJECT_FILES.dir,
    testMatch: PROJECT_FILES.generator,
    teardown: BWA_PROJECTS.judge,
  });
  expect(judge).toMatchObject({ name: BWA_PROJECTS.judge, testMatch: PROJECT_FILES.judge, retries: 0 });
  // The channel they chose is the browser: bwa adds no executable of its own.
  expect(tasks!.use!.launchOptions).toBeUndefined();
  expect(tasks!.outputDir).toMatch(new RegExp(`${escape(path.sep)}reports${escape(path.sep)}test-results${escape(path.sep)}run_`));
});

test('who the browser is to their app stays with their projects: bwa’s samples get neither their storageState, headers, credentials nor base URL', () => {
  const contextOptions = { storageState: 'their-state.json', locale: 'de-DE' };
  const config = withBwa(
    defineConfig({
      use: {
        storageState: '.auth/user.json',
        extraHTTPHeaders: { authorization: 'Bearer team-token' },
        httpCredentials: { username: 'qa', password: 'pw' },
        baseURL: 'https://app.example',
        viewport: { width: 800, height: 600 },
        proxy: { server: 'http://proxy.corp:3128' },
        contextOptions,
      },
      projects: [
        { name: 'setup' },
        { name: 'e2e', use: { storageState: '.auth/admin.json' } },
        // An option a project leaves undefined (an unset STAGING_URL) is the top level's, as Playwright merges them.
        { name: 'staging', use: { baseURL: undefined } },
      ],
    }),
  );
  const [setup, e2e, staging, tasks] = config.projects!;
  expect(staging!.use!.baseURL).toBe('https://app.example');
  // The rest is shared, bwa's project included (it inherits the top level): their proxy, viewport and locale.
  expect(config.use).toEqual({
    viewport: { width: 800, height: 600 },
    proxy: { server: 'http://proxy.corp:3128' },
    contextOptions: { locale: 'de-DE' },
  });
  expect(tasks!.use).not.toHaveProperty('storageState');
  expect(setup!.use).toEqual({
    storageState: '.auth/user.json',
    extraHTTPHeaders: { authorization: 'Bearer team-token' },
    httpCredentials: { username: 'qa', password: 'pw' },
    baseURL: 'https://app.example',
    contextOptions,
  });
  // A project's own option still wins over the top level's, as in Playwright.
  expect(e2e!.use!.storageState).toBe('.auth/admin.json');
  // A `use` without any of them is left as it was, to the object.
  const plain = { viewport: { width: 1, height: 1 } };
  expect(withBwa(defineConfig({ use: plain })).use).toBe(plain);
});

test('folders resolve from the project’s folder; a config of one implicit project keeps it; Playwright’s default reporter stays', () => {
  const dir = tempDir('bwa-project-');
  setEnv({ AGENT_PROJECT_DIR: undefined });
  const config = withBwa(defineConfig({ testDir: 'tests' }), { projectDir: dir, tasksDir: 'audit/tasks' });
  expect(config.projects![0]).toEqual({});
  expect(config.reporter![1]).toEqual([expect.stringMatching(/^(list|dot)$/)]);
  expect(settings.tasksDir).toBe(path.join(dir, 'audit', 'tasks'));
  expect(settings.reportsDir).toBe(path.join(dir, 'reports'));
  expect(envOf().AGENT_AUTH_DIR).toBe(path.join(dir, '.auth'));
});

test('html and allure options: bwa’s labelled HTML report replaces theirs with their options; Allure gets one folder per run', () => {
  expect(() => withBwa(theirs, { allure: true })).toThrow(
    'withBwa: the allure option needs allure-playwright in your project: npm i -D allure-playwright',
  );
  // This checkout has allure-playwright installed.
  setEnv({ AGENT_PROJECT_DIR: path.resolve(__dirname, '../../..') });
  const config = withBwa(theirs, { html: true, allure: { environmentInfo: { team: 'audit' } } });
  expect(config.reporter![1]).toEqual([path.resolve(__dirname, '../../../agent/report/html-reporter.ts'), { outputFolder: 'their-html' }]);
  const allure = (config.reporter as ReporterDescription[]).find(([name]) => name === 'allure-playwright');
  expect(allure?.[1]).toMatchObject({ environmentInfo: { team: 'audit' }, resultsDir: expect.stringMatching(/allure-results[\\/]run_/) });
});

test('a project of theirs named like bwa’s is an error that says which', () => {
  expect(() => withBwa(defineConfig({ projects: [{ name: 'bwa' }] }))).toThrow(
    'withBwa: your config already has a project named "bwa"; bwa adds projects bwa and bwa-judge',
  );
});

test('the config folder is found as Playwright finds it: -c/--config (file or folder), else the working directory', () => {
  const dir = tempDir('bwa-config-');
  expect(configDir(['node', 'playwright', 'test'], '/work/x')).toBe('/work/x');
  expect(configDir(['node', 'playwright', 'test', '-c', 'e2e/playwright.config.ts'], '/work/x')).toBe('/work/x/e2e');
  expect(configDir(['node', 'playwright', 'test', `--config=${dir}`], '/work/x')).toBe(dir);
  expect(configDir(['node', 'playwright', 'test', '--config', dir], '/work/x')).toBe(dir);
});

function escape(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
}
