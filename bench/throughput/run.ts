/**
 * Throughput of the bundled tracker_tickets task (60 samples) through real nested `playwright test` runs,
 * with 2, 4 and 8 workers, with the recipe decider and with the scripted model at 800 ms per turn, each once on
 * local browsers (a Chromium per worker) and once on a local `bwa browser-server` (AGENT_BROWSER_WS), back to back.
 * Usage: npx tsx bench/throughput/run.ts [--workers 2,4,8] [--deciders recipe,model] [--browsers local,server] [--samples 60] [--latency 800]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTaskFile } from '../../agent/task/load-task';
import { loadSamplesCsv } from '../../agent/task/samples';
import { startModelServer } from '../../fixtures/model-server';
import { trackerTicketScript } from '../../fixtures/model-scripts/tracker-tickets';
import { ensureFixtureSites } from '../../fixtures/serve';
import { startBrowserServer, type RunningBrowserServer } from '../../specs/self/helpers/browser-server';
import { startNested } from '../../specs/self/helpers/nested-run';
import { loadAverage, reapedChildrenCpuSeconds } from '../lib/cpu';
import { table } from '../lib/stats';
import { tempDirFor } from '../lib/temp';
import { TreeSampler } from './rss';
import { countStatuses, option, readResults, statusText, tasksDirWith, TASK, type ResultFile } from './tracker';

type Browsers = 'local' | 'server';

interface RunRow {
  decider: string;
  workers: number;
  browsers: Browsers;
  samples: number;
  statuses: Record<string, number>;
  wallS: number;
  /** First sample start → last sample end, from result.json (no runner start-up or reporting). */
  windowS: number;
  /** Mean time one sample takes inside its worker (result.json started_at → finished_at). */
  sampleS: number;
  turnsPerSample: number;
  promptTokensPerSample: number;
  outputTokensPerSample: number;
  workerPeaks: Array<{ nodeMb: number; treeMb: number }>;
  serverPeakMb: number;
  totalPeakMb: number;
  /** The runner, its workers, their browsers and the browser server, user + system. */
  cpuS: number;
  load: string;
  rssSamples: number;
}

async function main(): Promise<void> {
  const workerCounts = option('workers', '2,4,8').split(',').map(Number);
  const deciders = option('deciders', 'recipe,model').split(',');
  const browserModes = option('browsers', 'local,server').split(',') as Browsers[];
  const latencyMs = Number(option('latency', '800'));
  const tasksDir = tasksDirWith(Number(option('samples', '60')));
  const task = loadTaskFile(path.join(tasksDir, `${TASK}.json`));
  const samples = loadSamplesCsv(task.spec, path.join(tasksDir, 'inputs', `${TASK}.csv`));
  const sites = await ensureFixtureSites();
  const modelServer = await startModelServer({ port: 0, latencyMs });
  const rows: RunRow[] = [];
  try {
    for (const decider of deciders) {
      for (const workers of workerCounts) {
        // Local and server runs of one configuration back to back: they see the same machine load.
        for (const browsers of browserModes) {
          modelServer.reset();
          for (const sample of samples)
            modelServer.setScript(TASK, sample.sample_id, trackerTicketScript({ sample_id: sample.sample_id, url: sample.row.url ?? '' }));
          rows.push(
            await measureRun({
              decider,
              workers,
              browsers,
              tasksDir,
              expected: samples.length,
              modelUrl: modelServer.url,
              turns: () => modelServer.requests.filter(r => r.kind === 'decider').length,
            }),
          );
        }
      }
    }
  } finally {
    await modelServer.close();
    await sites.close();
  }
  printReport(rows, latencyMs);
  const raw = path.join(tempDirFor('results'), 'throughput.json');
  fs.writeFileSync(raw, JSON.stringify(rows, null, 2));
  console.log(`\nraw rows: ${raw}`);
}

interface RunPlan {
  decider: string;
  workers: number;
  browsers: Browsers;
  tasksDir: string;
  expected: number;
  modelUrl: string;
  turns(): number;
}

async function measureRun(plan: RunPlan): Promise<RunRow> {
  const { decider, workers, browsers } = plan;
  const reports = tempDirFor(`${decider}-w${workers}-${browsers}`);
  const runId = `bench-${decider}-w${workers}-${browsers}`;
  const browserServer: RunningBrowserServer | undefined = browsers === 'server' ? await startBrowserServer(['--port', '0']) : undefined;
  const env = {
    AGENT_REPORTS_DIR: reports,
    AGENT_RUN_ID: runId,
    AGENT_TASKS_DIR: plan.tasksDir,
    AGENT_DECIDER: decider,
    AGENT_RETRIES: '0',
    AGENT_BROWSER_WS: browserServer?.endpoint,
    ...(decider === 'model'
      ? { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: plan.modelUrl }
      : { ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined }),
  };
  const load = loadAverage();
  const cpuBefore = reapedChildrenCpuSeconds();
  const started = Date.now();
  const run = startNested({ args: ['--project=bwa', '--grep', `@${TASK}`, `--workers=${workers}`], env });
  const sampler = new TreeSampler(run.child.pid!, browserServer?.child.pid);
  sampler.start();
  const outcome = await run.done;
  const peaks = sampler.stop();
  const wallS = (Date.now() - started) / 1000;
  // Stopped before reading the CPU: the server's time counts once it has exited.
  const serverExit = await browserServer?.stop();
  if (browserServer && serverExit !== 0) throw new Error(`${runId}: bwa browser-server exited ${serverExit}:\n${browserServer.output()}`);
  const cpuS = reapedChildrenCpuSeconds() - cpuBefore;
  const results = readResults(reports, runId);
  if (results.length !== plan.expected)
    throw new Error(`${runId}: ${results.length} results for ${plan.expected} samples (exit ${outcome.code})\n${outcome.output.slice(-2000)}`);
  const statuses = countStatuses(results.map(r => r.status));
  const windowS = (Math.max(...results.map(r => Date.parse(r.finished_at))) - Math.min(...results.map(r => Date.parse(r.started_at)))) / 1000;
  const per = (f: (r: ResultFile) => number) => results.reduce((s, r) => s + f(r), 0) / results.length;
  console.log(
    `${runId}: ${statusText(statuses)} in ${wallS.toFixed(1)}s wall, ${windowS.toFixed(1)}s sample window, ${cpuS.toFixed(1)}s CPU, ${peaks.length} worker process(es), load ${load}`,
  );
  return {
    decider,
    workers,
    browsers,
    samples: results.length,
    statuses,
    wallS,
    windowS,
    sampleS: per(r => (Date.parse(r.finished_at) - Date.parse(r.started_at)) / 1000),
    turnsPerSample: plan.turns() / results.length,
    promptTokensPerSample: per(r => r.usage.input_tokens + r.usage.cache_read_input_tokens + r.usage.cache_creation_input_tokens),
    outputTokensPerSample: per(r => r.usage.output_tokens),
    workerPeaks: peaks,
    serverPeakMb: sampler.serverPeakMb,
    totalPeakMb: sampler.totalPeakMb,
    cpuS,
    load,
    rssSamples: sampler.samples,
  };
}

function printReport(rows: RunRow[], latencyMs: number): void {
  // The largest peak any worker process reached (Playwright may replace a worker; short-lived ones peak lower).
  const busiest = (r: RunRow) => ({
    nodeMb: Math.max(0, ...r.workerPeaks.map(p => p.nodeMb)),
    treeMb: Math.max(0, ...r.workerPeaks.map(p => p.treeMb)),
  });
  const perMinute = (r: RunRow) => (r.samples / r.windowS) * 60;
  const local = (r: RunRow) => rows.find(b => b.decider === r.decider && b.workers === r.workers && b.browsers === 'local');
  console.log(`\nthroughput benchmark — ${TASK}, ${rows[0]?.samples ?? 0} samples per run; model = scripted, ${latencyMs} ms per turn\n`);
  console.log(
    table(
      [
        'decider',
        'workers',
        'browsers',
        'statuses',
        'samples/min',
        'server ÷ local samples/min',
        'wall s',
        's/sample',
        'CPU s',
        'turns/sample',
        'prompt tok/sample',
        'output tok/sample',
        'worker procs',
        'peak RSS/worker (node) MB',
        'peak PSS/worker tree MB',
        'peak PSS browser server MB',
        'peak PSS all MB',
        'load avg at start',
      ],
      rows.map(r => [
        r.decider,
        r.workers,
        r.browsers,
        statusText(r.statuses),
        perMinute(r),
        local(r) ? (perMinute(r) / perMinute(local(r)!)).toFixed(2) : '—',
        r.wallS,
        r.sampleS,
        r.cpuS,
        r.turnsPerSample,
        Math.round(r.promptTokensPerSample),
        Math.round(r.outputTokensPerSample),
        r.workerPeaks.length,
        Math.round(busiest(r).nodeMb),
        Math.round(busiest(r).treeMb),
        r.browsers === 'server' ? Math.round(r.serverPeakMb) : '—',
        Math.round(r.totalPeakMb),
        r.load.split(' ')[0]!,
      ]),
    ),
  );
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
