/**
 * Recipe replay through bwa vs the same recipe exported with `bwa recipe export` and run as plain Playwright Test:
 * the tracker_tickets task's 60 samples, nested `playwright test` runs alternating bwa, plain, bwa, plain, … in one
 * invocation. Wall time of each whole run, the CPU of the runner with its workers and their browsers, and where the wall
 * time goes (both runs carry the same timing reporter).
 * Usage: npx tsx bench/throughput/plain.ts [--rounds 3] [--samples 60] [--workers 2]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CHROMIUM_ARGS, fallbackExecutable } from '../../agent/browser/chromium';
import { exportRecipe } from '../../agent/recipe/export';
import { loadTaskFile } from '../../agent/task/load-task';
import { ensureFixtureSites } from '../../fixtures/serve';
import { PROJECT_ROOT, runNested } from '../../specs/self/helpers/nested-run';
import { loadAverage, reapedChildrenCpuSeconds } from '../lib/cpu';
import { median, table } from '../lib/stats';
import { tempDirFor } from '../lib/temp';
import { phasesOf, TIMING_REPORTER, writeTimedBwaConfig, type Phases } from './phases';
import { countStatuses, option, readResults, statusText, tasksDirWith, TASK } from './tracker';

interface Measured {
  kind: 'bwa' | 'plain';
  round: number;
  wallS: number;
  cpuS: number;
  statuses: string;
  load: string;
  phases: Phases;
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
    reporter: [['list'], ['html', { open: 'never', outputFolder: path.join(results, 'html') }], [TIMING_REPORTER]],
    use: {
      launchOptions: { executablePath: fallbackExecutable(), args: CHROMIUM_ARGS },
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
  const bwa = writeTimedBwaConfig();
  const measured: Measured[] = [];
  try {
    for (let round = 1; round <= rounds; round++) {
      for (const kind of ['bwa', 'plain'] as const) {
        const reports = tempDirFor(`${kind}-${round}`);
        const runId = `bench-${kind}-${round}`;
        const timingFile = path.join(reports, 'timing.json');
        const load = loadAverage();
        const cpuBefore = reapedChildrenCpuSeconds();
        const started = Date.now();
        const run =
          kind === 'bwa'
            ? await runNested({
                args: ['--config', bwa.config, '--project=bwa', '--grep', `@${TASK}`, `--workers=${workers}`],
                env: {
                  BENCH_TIMING_FILE: timingFile,
                  AGENT_REPORTS_DIR: reports,
                  AGENT_RUN_ID: runId,
                  AGENT_TASKS_DIR: tasksDir,
                  AGENT_DECIDER: 'recipe',
                  AGENT_RETRIES: '0',
                  ANTHROPIC_API_KEY: undefined,
                  ANTHROPIC_BASE_URL: undefined,
                },
              })
            : await runNested({ args: ['--config', plain.config], env: { BENCH_TIMING_FILE: timingFile } });
        const ended = Date.now();
        const wallS = (ended - started) / 1000;
        const cpuS = reapedChildrenCpuSeconds() - cpuBefore;
        const statuses = kind === 'bwa' ? statusText(countStatuses(readResults(reports, runId).map(r => r.status))) : plainStatuses(run.output);
        const phases = phasesOf(timingFile, started, ended, kind === 'bwa' ? 'tasks' : undefined);
        measured.push({ kind, round, wallS, cpuS, statuses, load, phases });
        console.log(
          `round ${round} ${kind}: ${wallS.toFixed(1)} s wall, ${cpuS.toFixed(1)} s CPU, ${statuses} (exit ${run.code}, load ${load}); ` +
            `${phases.loadS.toFixed(1)} s to load, ${phases.toFirstSampleS.toFixed(1)} s to the first sample, ${phases.samplesS.toFixed(1)} s of samples (${phases.perTestS.toFixed(2)} s per test), ${phases.afterS.toFixed(1)} s after the last`,
        );
      }
    }
  } finally {
    bwa.remove();
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
      pairs.map(p => [
        p.round,
        p.bwa.wallS,
        p.plain.wallS,
        p.wall.toFixed(3),
        p.bwa.cpuS,
        p.plain.cpuS,
        p.cpu.toFixed(3),
        p.bwa.statuses,
        p.plain.statuses,
        `${p.bwa.load} / ${p.plain.load}`,
      ]),
    ),
  );
  console.log(
    `\nmedian over ${pairs.length} rounds: wall ${median(pairs.map(p => p.wall)).toFixed(3)}×, CPU ${median(pairs.map(p => p.cpu)).toFixed(3)}×`,
  );
  // Where bwa's extra wall time goes: each phase's median in both, and the median of the per-round differences.
  const phase = (name: string, of: (p: Phases) => number) => {
    const bwa = median(pairs.map(p => of(p.bwa.phases)));
    const plain = median(pairs.map(p => of(p.plain.phases)));
    return [name, bwa.toFixed(2), plain.toFixed(2), median(pairs.map(p => of(p.bwa.phases) - of(p.plain.phases))).toFixed(2)];
  };
  console.log(`\nwhere the wall time goes (medians, seconds)\n`);
  console.log(
    table(
      ['phase', 'bwa', 'plain', 'bwa − plain'],
      [
        phase('process start → test list ready (config, web servers, globalSetup, test files)', p => p.loadS),
        phase('→ first sample test starts (workers, bwa: setup project)', p => p.toFirstSampleS),
        phase('first sample → last sample', p => p.samplesS),
        phase('last sample → exit (bwa: judge project; reporters, shutdown)', p => p.afterS),
        phase('one sample test (mean, fixtures included)', p => p.perTestS),
      ],
    ),
  );
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
