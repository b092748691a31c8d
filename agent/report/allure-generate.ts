import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { env } from '../env/read';
import { settings } from '../settings';

/**
 * `npm run report:allure`: builds the Allure HTML report of one run — AGENT_RUN_ID's, else the latest — from
 * reports/allure-results/<run_id> into reports/allure-report with the JavaScript Allure 3 CLI (no Java).
 * Honours AGENT_REPORTS_DIR like every other bwa output.
 */
export function generateAllureReport(reportsDir = settings.reportsDir, runId = env.AGENT_RUN_ID): { code: number; output: string } {
  const results = path.join(reportsDir, 'allure-results', runId ?? latestRun(path.join(reportsDir, 'allure-results')) ?? '');
  const report = path.join(reportsDir, 'allure-report');
  if (!fs.existsSync(results) || fs.readdirSync(results).length === 0) {
    return { code: 1, output: `no Allure results in ${results}: run the tasks first (npx playwright test)` };
  }
  // Allure 3 has no --clean: a report of the previous run must not mix into this one.
  fs.rmSync(report, { recursive: true, force: true });
  const run = spawnSync(process.execPath, [allureCli(), 'generate', results, '--output', report, '--report-name', 'bwa evidence'], {
    encoding: 'utf8',
  });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  if (run.status !== 0) return { code: run.status ?? 1, output };
  return { code: 0, output: `${output}Allure report: ${path.join(report, 'index.html')}` };
}

/** The run whose Allure results were written last (each run writes into its own folder). */
function latestRun(dir: string): string | undefined {
  if (!fs.existsSync(dir)) return undefined;
  const runs = fs.readdirSync(dir, { withFileTypes: true }).filter(e => e.isDirectory() && fs.readdirSync(path.join(dir, e.name)).length > 0);
  return runs.sort((a, b) => fs.statSync(path.join(dir, b.name)).mtimeMs - fs.statSync(path.join(dir, a.name)).mtimeMs)[0]?.name;
}

function allureCli(): string {
  // The package's only export is its ESM entry (dist/index.js); the CLI sits beside dist/.
  return path.join(path.dirname(require.resolve('allure')), '..', 'cli.js');
}

if (require.main === module) {
  const { code, output } = generateAllureReport();
  (code === 0 ? console.log : console.error)(output.trim());
  process.exitCode = code;
}
