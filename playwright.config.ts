import { defineConfig } from '@playwright/test';
import * as os from 'node:os';
import { withBwa } from 'bwa';

/**
 * The example project: a Playwright config as a team would write it, with bwa added by one call. bwa adds the `bwa`
 * project (one test per task sample, `--grep @<task_id>`), its reporter and its globalSetup; everything here stays.
 * (The project's own tests have their own config: `npm test`.)
 */
export default withBwa(
  defineConfig({
    // The team's own tests; bwa's samples come from tasks/ through the project withBwa adds.
    testDir: './tests',
    fullyParallel: true,
    forbidOnly: Boolean(process.env.CI),
    // Samples wait on pages more than on the CPU: two workers even on a 2-core machine.
    workers: Math.max(2, Math.floor(os.cpus().length / 2)),
    reporter: 'list',
    use: {
      viewport: { width: 1280, height: 900 },
      colorScheme: 'light',
    },
  }),
  // The HTML report with each sample's status as a label (reports/html), and the Allure input of each run
  // (reports/allure-results/<run_id>/, npm run report:allure).
  { html: true, allure: true },
);
