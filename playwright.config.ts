import { defineConfig } from '@playwright/test';
import 'dotenv/config';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromiumPath, CHROMIUM_ARGS } from './agent/browser/chromium';
import { newRunId, settings } from './agent/settings';
import { FIXTURE_SITES } from './fixtures/serve';

// Set once in the main process; workers (and merge-reports) inherit them.
process.env.AGENT_RUN_ID ||= newRunId();
process.env.AGENT_CLI_ARGS ||= JSON.stringify(process.argv);

const reports = settings.reportsDir;
const auditTrace = process.env.AGENT_TRACE === 'on';

export default defineConfig({
  outputDir: path.join(reports, 'test-results'),
  // Discovery writes the samples of tasks with a discover block before the test files load.
  globalSetup: './agent/plan/global-setup.ts',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: Number(process.env.AGENT_RETRIES ?? 1),
  // Samples wait on pages more than on the CPU: two workers even on a 2-core machine.
  workers: process.env.AGENT_WORKERS ? Number(process.env.AGENT_WORKERS) : Math.max(2, Math.floor(os.cpus().length / 2)),
  timeout: 120_000,
  reporter: [
    ['list'],
    ['html', { open: 'never', outputFolder: path.join(reports, 'html') }],
    ['./agent/report/reporter.ts'],
    ['allure-playwright', { resultsDir: path.join(reports, 'allure-results'), detail: true, suiteTitle: true }],
  ],
  use: {
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
    acceptDownloads: true,
    trace: auditTrace ? 'on' : 'retain-on-failure',
    screenshot: 'off',
    video: 'off',
  },
  // serve.ts starts only the sites that are not already up, so one command serves every health check.
  webServer: FIXTURE_SITES.map(({ port }) => ({
    command: 'npx tsx fixtures/serve.ts',
    url: `http://127.0.0.1:${port}/health`,
    reuseExistingServer: true,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  })),
  projects: [
    // Signs in once for every selected task with an auth_profile (credentials from .env), saving .auth/<profile>.json.
    // The judge is setup's teardown: it runs once every sample test is over, pass or fail (AGENT_JUDGE=batch).
    { name: 'setup', testDir: './specs/setup', testMatch: /.*\.setup\.ts/, retries: 0, teardown: 'judge' },
    { name: 'judge', testDir: './specs/judge', testMatch: 'judge.spec.ts', retries: 0 },
    { name: 'tasks', testDir: './specs', testMatch: 'tasks.spec.ts', dependencies: ['setup'] },
    // The project's own tests: files in parallel, each file's tests in order (some share a server or a run).
    { name: 'self', testDir: './specs/self', retries: 0, fullyParallel: false },
  ],
});
