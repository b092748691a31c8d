import './specs/self/self-env';
import { defineConfig } from '@playwright/test';
import base from './playwright.config';
import { FIXTURE_SITES } from './fixtures/serve';

/** The project's own tests (`npm test`): never part of a user's `npx playwright test`. */
export default defineConfig({
  ...base,
  // Its tests start their own runs, servers and sign-ins; nothing to ready for them here.
  globalSetup: undefined,
  retries: 0,
  // serve.ts starts only the sites that are not already up, so one command serves every health check.
  webServer: FIXTURE_SITES.map(({ port }) => ({
    command: 'npx tsx fixtures/serve.ts',
    url: `http://127.0.0.1:${port}/health`,
    reuseExistingServer: true,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  })),
  // Files in parallel, each file's tests in order (some share a server or a run).
  projects: [{ name: 'self', testDir: './specs/self', fullyParallel: false }],
});
