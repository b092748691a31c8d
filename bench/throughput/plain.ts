/**
 * Recipe replay through bwa vs the same recipe exported with `bwa recipe export` and run as plain Playwright Test:
 * the tracker_tickets task's 60 samples, nested `playwright test` runs alternating bwa, plain, bwa, plain, … in one
 * invocation. Wall time of each whole run, and the CPU of the runner with its workers and their browsers.
 * Usage: npx tsx bench/throughput/plain.ts [--rounds 3] [--samples 60] [--workers 2]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CHROMIUM_ARGS, chromiumPath } from '../../agent/browser/chromium';
import { exportRecipe } from '../../agent/recipe/export';
import { loadTaskFile } from '../../agent/task/load-task';
import { ensureFixtureSites } from '../../fixtures/serve';
import { PROJECT_ROOT, runNested } from '../../specs/self/helpers/nested-run';
import { loadAverage, reapedChildrenCpuSeconds } from '../lib/cpu';
import { median, table } from '../lib/stats';
import { tempDirFor } from '../lib/temp';
import { countStatuses, option, readResults, statusText, tasksDirWith, TASK } from './tracker';

interface Measured {
  kind: 'bwa' | 'plain';
  round: number;
  wallS: number;
  cpuS: number;
  statuses: string;
  load: string;
  /** bwa only, from result.json: runner start → first sample start, and last sample end → runner exit. */
  beforeS?: number;
  afterS?: number;
}

/**
 * The plain spec's config: the Playwright half of bwa's playwright.config.ts (same browser, context options,
 * trace setting, timeout, list and HTML reporters) with no bwa in it. It lives under the project, like a user's
 * exported spec, so the spec's imports (@playwright/test, csv-parse) resolve.
 */
function writePlainProject(tasksDir: string, workers: number): { dir: string; config: string } {
  const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, 'specs', 'generated', '.bench-'));
  const out = path.join(dir, `${TASK}.spec.ts`);
  const previous = process.env.AGENT_TASKS_DIR;
  process.env.AGENT_TASKS_DIR = tasksDir;
  try {
    exportRecipe(loadTaskFile(path.join(tasksDir, `${TASK}.json`)), { out });
  } finally {
    if (previous === undefined) delete process.env.AGENT_TASKS_DIR;
    else process.env.AGENT_TASKS_DIR = previous;
  }
  const results = tempDirFor('plain-results');
  const config = path.join(dir, 'playwright.config.js');
  const settings = {
    testDir: dir,
    outputDir: path.join(results, 'test-results'),
    fullyParallel: true,
    retries: 0,
    workers,
    timeout: 120_000,
    reporter: [['list'], ['html', { open: 'never', outputFolder: path.join(results, 'html') }]],
    use: {
      launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
      viewport: { width: 1280, height: 900 },
      colorScheme: 'light',
      acceptDownloads: true,
      trace: 'retain-on-failure',
      screenshot: 'off',
      video: 'off',
    },
  };
  fs.writeFileSync(config, `module.exports = ${JSON.stringify(settings, null, 2)};\n`);
  return { dir, config };
}

/** Passed and failed tests from the list reporter's summary ("58 passed", "2 failed"). */
function plainStatuses(output: string): string {
  const counts = [...output.matchAll(/^\s+(\d+) (passed|failed|flaky|skipped)/gm)].map(m => `${m[1]} ${m[2]}`);
  return counts.join(', ') || 'no summary';
}

async function main(): Promise<void> {
  const rounds = Number(option('rounds', '3'));
  const workers = Number(option('workers', '2'));
  const samples = Number(option('samples', '60'));
  const tasksDir = tasksDirWith(samples);
  const sites = await ensureFixtureSites();
  const plain = writePlainProject(tasksDir, workers);
  const measured: Measured[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const kind of ['bwa', 'plain'] as const) {
        const reports = tempDirFor(`${kind}-${round}`);
        const runId = `bench-${kind}-${round}`;
        const load = loadAverage();
        const cpuBefore = reapedChildrenCpuSeconds();
        const started = Date.now();
        const run =
          kind === 'bwa'
            ? await runNested({
                args: ['--project=tasks', '--grep', `@${TASK}`, `--workers=${workers}`],
                env: { AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: runId, AGENT_TASKS_DIR: tasksDir, AGENT_DECIDER: 'recipe', AGENT_RETRIES: '0', ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined },
              })
            : await runNested({ args: ['--config', plain.config] });
        const wallS = (Date.now() - started) / 1000;
        const cpuS = reapedChildrenCpuSeconds() - cpuBefore;
        const ended = Date.now();
        const results = kind === 'bwa' ? readResults(reports, runId) : [];
        const statuses = kind === 'bwa' ? statusText(countStatuses(results.map(r => r.status))) : plainStatuses(run.output);
        const edges = results.length ? { beforeS: (Math.min(...results.map(r => Date.parse(r.started_at))) - started) / 1000, afterS: (ended - Math.max(...results.map(r => Date.parse(r.finished_at)))) / 1000 } : {};
        measured.push({ kind, round, wallS, cpuS, statuses, load, ...edges });
        console.log(`round ${round} ${kind}: ${wallS.toFixed(1)} s wall, ${cpuS.toFixed(1)} s CPU, ${statuses} (exit ${run.code}, load ${load})${edges.beforeS === undefined ? '' : `; ${edges.beforeS.toFixed(1)} s before the first sample, ${edges.afterS!.toFixed(1)} s after the last`}`);
      }
    }
  } finally {
    fs.rmSync(plain.dir, { recursive: true, force: true });
    await sites.close();
  }
  printReport(measured, samples, workers);
}

function printReport(measured: Measured[], samples: number, workers: number): void {
  const pairs = [...new Set(measured.map(m => m.round))].map(round => {
    const bwa = measured.find(m => m.round === round && m.kind === 'bwa')!;
    const plain = measured.find(m => m.round === round && m.kind === 'plain')!;
    return { round, bwa, plain, wall: bwa.wallS / plain.wallS, cpu: bwa.cpuS / plain.cpuS };
  });
  console.log(`\nrecipe replay: bwa vs the exported plain Playwright spec — ${TASK}, ${samples} samples, ${workers} workers, alternating\n`);
  console.log(
    table(
      ['round', 'bwa wall s', 'plain wall s', 'wall ×', 'bwa CPU s', 'plain CPU s', 'CPU ×', 'bwa statuses', 'plain tests', 'load (bwa / plain)'],
      pairs.map(p => [p.round, p.bwa.wallS, p.plain.wallS, p.wall.toFixed(3), p.bwa.cpuS, p.plain.cpuS, p.cpu.toFixed(3), p.bwa.statuses, p.plain.statuses, `${p.bwa.load} / ${p.plain.load}`]),
    ),
  );
  console.log(`\nmedian over ${pairs.length} rounds: wall ${median(pairs.map(p => p.wall)).toFixed(3)}×, CPU ${median(pairs.map(p => p.cpu)).toFixed(3)}×`);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
