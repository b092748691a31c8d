/**
 * Where the project's own test suite spends its CPU: runs `npm test`'s config (any extra arguments are passed on,
 * e.g. a file or `--project=self`) and samples, every second, the CPU of each Playwright worker's process tree
 * (the worker, the Chromium it launched, the nested runs it started — reaped children included). A test's CPU is
 * its worker tree's growth between the test's start and end, so tests running side by side are told apart.
 * Prints the machine's busy CPU and wall time, CPU by project, and the costliest files and tests.
 * Usage: npx tsx bench/suite/run.ts [--top 30] [playwright test arguments…]
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { JSONReport, JSONReportSuite } from '@playwright/test/reporter';
import { machineBusySeconds, readProcessTable, treeCpuSeconds } from '../lib/cpu';
import { table } from '../lib/stats';
import { tempDirFor } from '../lib/temp';

const ROOT = path.resolve(__dirname, '../..');
const argv = process.argv.slice(2);
const topAt = argv.indexOf('--top');
const top = topAt >= 0 ? Number(argv.splice(topAt, 2)[1]) : 30;

interface Sample {
  at: number;
  /** Worker index (in the order the runner started its workers) → CPU seconds of its tree. */
  trees: Map<number, number>;
}

async function main(): Promise<void> {
  const jsonFile = path.join(tempDirFor('bwa-suite-bench-'), 'report.json');
  const busyBefore = machineBusySeconds();
  const started = Date.now();
  const runner = spawn(
    process.execPath,
    [path.join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '-c', 'playwright.self.config.ts', '--reporter=dot,json', ...argv],
    {
      cwd: ROOT,
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: jsonFile },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const workers = new Map<number, number>();
  const samples: Sample[] = [];
  const timer = setInterval(() => {
    const procs = readProcessTable();
    const fresh = [...procs.values()]
      .filter(p => p.ppid === runner.pid && !workers.has(p.pid) && p.cmd.includes('workerProcessEntry'))
      .sort((a, b) => a.startTicks - b.startTicks);
    for (const p of fresh) workers.set(p.pid, workers.size);
    const trees = new Map<number, number>();
    for (const [pid, index] of workers) if (procs.has(pid)) trees.set(index, treeCpuSeconds(procs, pid));
    samples.push({ at: Date.now(), trees });
  }, 1000);
  const code = await new Promise<number | null>(resolve => runner.on('close', resolve));
  clearInterval(timer);
  const wallS = (Date.now() - started) / 1000;
  const busyS = machineBusySeconds() - busyBefore;

  const report = JSON.parse(fs.readFileSync(jsonFile, 'utf8')) as JSONReport;
  const tests = testsOf(report.suites).map(t => ({ ...t, cpuS: cpuDuring(samples, t.workerIndex, t.start, t.start + t.durationMs) }));
  const attributed = tests.reduce((sum, t) => sum + t.cpuS, 0);
  console.log(
    `\nsuite: exit ${code}, ${tests.length} test runs, wall ${(wallS / 60).toFixed(1)} min, machine busy ${busyS.toFixed(0)} CPU-s (${(busyS / wallS).toFixed(2)} cores on average), ${attributed.toFixed(0)} CPU-s attributed to tests`,
  );
  const byProject = groupCpu(tests, t => t.project);
  console.log(
    `\n${table(
      ['project', 'tests', 'CPU-s', 'share'],
      byProject.map(([name, g]) => [name, g.n, Math.round(g.cpuS), `${((100 * g.cpuS) / attributed).toFixed(0)}%`]),
    )}`,
  );
  const byFile = groupCpu(tests, t => t.file);
  console.log(
    `\n${table(
      ['file', 'tests', 'CPU-s', 'worker-s'],
      byFile.slice(0, top).map(([name, g]) => [name, g.n, Math.round(g.cpuS), Math.round(g.wallS)]),
    )}`,
  );
  const costliest = [...tests].sort((a, b) => b.cpuS - a.cpuS).slice(0, top);
  console.log(
    `\n${table(
      ['test', 'CPU-s', 'worker-s'],
      costliest.map(t => [`${t.file} › ${t.title.slice(0, 90)}`, Math.round(t.cpuS), Math.round(t.durationMs / 1000)]),
    )}`,
  );
  process.exitCode = code ?? 1;
}

interface TestRun {
  file: string;
  title: string;
  project: string;
  workerIndex: number;
  start: number;
  durationMs: number;
}

function testsOf(suites: JSONReportSuite[]): TestRun[] {
  return suites.flatMap(suite => [
    ...suite.specs.flatMap(spec =>
      spec.tests.flatMap(test =>
        test.results.map(result => ({
          file: spec.file,
          title: spec.title,
          project: test.projectName,
          workerIndex: result.workerIndex,
          start: Date.parse(String(result.startTime)),
          durationMs: result.duration,
        })),
      ),
    ),
    ...testsOf(suite.suites ?? []),
  ]);
}

/** The worker tree's growth over the test: from the last sample at or before its start to the first at or after its end. */
function cpuDuring(samples: Sample[], worker: number, from: number, to: number): number {
  const mine = samples.flatMap(sample => {
    const value = sample.trees.get(worker);
    return value === undefined ? [] : [{ at: sample.at, value }];
  });
  if (!mine.length) return 0;
  const before = mine.filter(s => s.at <= from).at(-1) ?? mine[0]!;
  const after = mine.find(s => s.at >= to) ?? mine.at(-1)!;
  return Math.max(0, after.value - before.value);
}

function groupCpu<T extends { cpuS: number; durationMs: number }>(
  items: T[],
  key: (item: T) => string,
): Array<[string, { n: number; cpuS: number; wallS: number }]> {
  const groups = new Map<string, { n: number; cpuS: number; wallS: number }>();
  for (const item of items) {
    const group = groups.get(key(item)) ?? { n: 0, cpuS: 0, wallS: 0 };
    group.n++;
    group.cpuS += item.cpuS;
    group.wallS += item.durationMs / 1000;
    groups.set(key(item), group);
  }
  return [...groups].sort((a, b) => b[1].cpuS - a[1].cpuS);
}

void main();
