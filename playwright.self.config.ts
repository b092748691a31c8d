import './specs/self/self-env';
import { defineConfig } from '@playwright/test';
import * as path from 'node:path';
import base from './playwright.config';
import { CHROMIUM_ARGS, DEBIAN_CHROMIUM } from './agent/browser/chromium';
import { env } from './agent/env/read';
import { settings } from './agent/settings';
import { FIXTURE_SITES } from './fixtures/serve';
import { runStartingSpecs } from './specs/self/helpers/run-starting-specs';
import { SELF_PROJECTS, TEST_DOUBLES_DIR } from './specs/self/projects';

const testDoublesDir = path.join(__dirname, 'specs/self', TEST_DOUBLES_DIR);
// The test doubles' own tests have their own project, whatever they start.
const runStarting = runStartingSpecs(path.join(__dirname, 'specs/self')).filter(file => !file.startsWith(`${testDoublesDir}${path.sep}`));

/** The project's own tests (`npm test`): never part of a user's `npx playwright test`. */
export default defineConfig({
  ...base,
  // Its tests start their own runs, servers and sign-ins; nothing to ready for them here.
  globalSetup: undefined,
  // Paths in listings and reports read from the checkout's root, not from the example project's tests/.
  testDir: '.',
  outputDir: path.join(settings.reportsDir, 'test-results', settings.runId),
  retries: 0,
  // Three workers, of which at most two hold tests that start whole runs of their own: on the 2-core machine the
  // suite keeps both cores busy with three (27.7 min, 3,292 CPU-s), and a fourth only adds contention — timeouts in
  // tests that bound an action's time, at load averages of 20 to 36.
  workers: env.BWA_SELF_WORKERS,
  use: {
    ...base.use,
    // This machine has no Playwright browsers (they download): Debian's Chromium, named the way a user's config names one.
    launchOptions: { executablePath: env.AGENT_CHROMIUM_PATH ?? DEBIAN_CHROMIUM, args: CHROMIUM_ARGS },
    acceptDownloads: true,
    // In-process tests keep no trace (each records one at a noticeable CPU cost, and CI keeps none); debug one
    // with `--trace on`. Tests about traces start runs that record them.
    trace: 'off',
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
  // Not the product's reporter: the samples these tests run fail and need review on purpose, and its run summary
  // ("… 11 failed", "⚠ drift") would read as the suite's. Each test asserts the outcome it expects instead.
  reporter: [['list'], ['./specs/self/suite-summary-reporter.ts']],
  // Files in parallel, each file's tests in order (some share a server or a run). The project that starts runs
  // comes first so its long files are queued before the short in-process ones fill the workers.
  projects: [
    { name: SELF_PROJECTS.runs, testDir: './specs/self', testMatch: runStarting, fullyParallel: false, workers: 2 },
    { name: SELF_PROJECTS.inProcess, testDir: './specs/self', testIgnore: [...runStarting, `${TEST_DOUBLES_DIR}/**`], fullyParallel: false },
    { name: SELF_PROJECTS.testDoubles, testDir: testDoublesDir, fullyParallel: false },
  ],
});
