import { defineConfig } from '@playwright/test';
import 'dotenv/config';
import * as os from 'node:os';
import * as path from 'node:path';
import { browserUse } from './agent/browser/remote';
import { env } from './agent/env/read';
import { prepareRunEnvironment, stopOnBadEnvironment } from './agent/setup/run-env';
import { settings } from './agent/settings';

stopOnBadEnvironment();
// Run id, invocation id and this run's blob file: set once in the main process; workers (and merge-reports) inherit them.
const { runId, reportsDir: reports } = prepareRunEnvironment();

/** Your tasks: one generated test per (task, sample). The project's own tests have their own config (`npm test`). */
export default defineConfig({
  // Per run: two runs in one checkout never share test output.
  outputDir: path.join(reports, 'test-results', runId),
  // Starts the selected tasks' web_servers, signs in their auth profiles, discovers their samples — before the tests load.
  globalSetup: './agent/setup/global-setup.ts',
  fullyParallel: true,
  forbidOnly: Boolean(env.CI),
  retries: env.AGENT_RETRIES,
  // Samples wait on pages more than on the CPU: two workers even on a 2-core machine.
  workers: env.AGENT_WORKERS ?? Math.max(2, Math.floor(os.cpus().length / 2)),
  timeout: 120_000,
  reporter: [
    ['list'],
    ['./agent/report/html-reporter.ts', { open: 'never', outputFolder: path.join(reports, 'html') }],
    ['./agent/report/reporter.ts'],
    ['allure-playwright', { resultsDir: path.join(reports, 'allure-results', runId), detail: true, suiteTitle: true }],
  ],
  use: {
    // A local Debian Chromium, or with AGENT_BROWSER_WS Playwright's connectOptions to a browser server.
    ...browserUse(),
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
    acceptDownloads: true,
    trace: settings.trace,
    screenshot: 'off',
    video: 'off',
  },
  projects: [
    // The judge runs once every sample test is over, pass or fail (AGENT_JUDGE=batch): the teardown of tasks.
    { name: 'tasks', testDir: './specs', testMatch: 'tasks.spec.ts', teardown: 'judge' },
    { name: 'judge', testDir: './specs/judge', testMatch: 'judge.spec.ts', retries: 0 },
  ],
});
