/**
 * Throughput of the bundled tracker_tickets task (60 samples) through real nested `playwright test` runs,
 * with 1, 2 and 4 workers, once with the recipe decider and once with the scripted model at 800 ms per turn.
 * Usage: npx tsx bench/throughput/run.ts [--workers 1,2,4] [--deciders recipe,model] [--samples 60] [--latency 800]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTaskFile } from '../../agent/task/load-task';
import { loadSamplesCsv } from '../../agent/task/samples';
import { startModelServer } from '../../fixtures/model-server';
import { trackerTicketScript, type TicketTruth } from '../../fixtures/model-scripts/tracker-tickets';
import { ensureFixtureSites } from '../../fixtures/serve';
import { startNested } from '../../specs/self/helpers/nested-run';
import { table } from '../lib/stats';
import { tempDirFor } from '../lib/temp';
import { TreeSampler } from './rss';

const TASK = 'tracker_tickets';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

interface RunRow {
  decider: string;
  workers: number;
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
  rssSamples: number;
}

interface ResultFile {
  status: string;
  started_at: string;
  finished_at: string;
  usage: { model_calls: number; input_tokens: number; output_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number };
}

function readResults(reports: string, runId: string): ResultFile[] {
  const dir = path.join(reports, 'runs', runId, TASK);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter(d => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'result.json')))
    .map(d => JSON.parse(fs.readFileSync(path.join(dir, d.name, 'result.json'), 'utf8')) as ResultFile);
}

/** A tasks folder holding only this task and its first `count` samples (the full CSV when count is 60+). */
function tasksDirWith(count: number): string {
  const dir = tempDirFor('tasks');
  fs.copyFileSync(path.resolve('tasks', `${TASK}.json`), path.join(dir, `${TASK}.json`));
  fs.mkdirSync(path.join(dir, 'inputs'));
  const lines = fs.readFileSync(path.resolve('tasks/inputs', `${TASK}.csv`), 'utf8').trim().split('\n');
  fs.writeFileSync(path.join(dir, 'inputs', `${TASK}.csv`), `${lines.slice(0, count + 1).join('\n')}\n`);
  return dir;
}

async function main(): Promise<void> {
  const workerCounts = option('workers', '1,2,4').split(',').map(Number);
  const deciders = option('deciders', 'recipe,model').split(',');
  const latencyMs = Number(option('latency', '800'));
  const tasksDir = tasksDirWith(Number(option('samples', '60')));
  const task = loadTaskFile(path.join(tasksDir, `${TASK}.json`));
  const samples = loadSamplesCsv(task.spec, path.join(tasksDir, 'inputs', `${TASK}.csv`));
  const sites = await ensureFixtureSites();
  const truth = (await (await fetch('http://127.0.0.1:4103/__truth.json')).json()).tickets as Record<string, TicketTruth>;
  const server = await startModelServer({ port: 0, latencyMs });
  const rows: RunRow[] = [];
  try {
    for (const decider of deciders) {
      for (const workers of workerCounts) {
        server.reset();
        for (const sample of samples) {
          const ref = /\/issue\/([^/?#]+)/.exec(sample.row.url ?? '')?.[1] ?? '';
          const ticket = truth[ref];
          server.setScript(TASK, sample.sample_id, trackerTicketScript(ticket ? { kind: 'ticket', truth: ticket } : { kind: 'missing', ref }));
        }
        const reports = tempDirFor(`${decider}-w${workers}`);
        const runId = `bench-${decider}-w${workers}`;
        const env = {
          AGENT_REPORTS_DIR: reports,
          AGENT_RUN_ID: runId,
          AGENT_TASKS_DIR: tasksDir,
          AGENT_DECIDER: decider,
          AGENT_RETRIES: '0',
          ...(decider === 'model' ? { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url } : { ANTHROPIC_API_KEY: undefined, ANTHROPIC_BASE_URL: undefined }),
        };
        const started = Date.now();
        const run = startNested({ args: ['--project=tasks', '--grep', `@${TASK}`, `--workers=${workers}`], env });
        const sampler = new TreeSampler(run.child.pid!);
        sampler.start();
        const outcome = await run.done;
        const peaks = sampler.stop();
        const wallS = (Date.now() - started) / 1000;
        const results = readResults(reports, runId);
        if (results.length !== samples.length) throw new Error(`${runId}: ${results.length} results for ${samples.length} samples (exit ${outcome.code})\n${outcome.output.slice(-2000)}`);
        const statuses: Record<string, number> = {};
        for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        const windowS = (Math.max(...results.map(r => Date.parse(r.finished_at))) - Math.min(...results.map(r => Date.parse(r.started_at)))) / 1000;
        const per = (f: (r: ResultFile) => number) => results.reduce((s, r) => s + f(r), 0) / results.length;
        rows.push({
          decider,
          workers,
          samples: results.length,
          statuses,
          wallS,
          windowS,
          sampleS: per(r => (Date.parse(r.finished_at) - Date.parse(r.started_at)) / 1000),
          turnsPerSample: server.requests.filter(r => r.kind === 'decider').length / results.length,
          promptTokensPerSample: per(r => r.usage.input_tokens + r.usage.cache_read_input_tokens + r.usage.cache_creation_input_tokens),
          outputTokensPerSample: per(r => r.usage.output_tokens),
          workerPeaks: peaks,
          rssSamples: sampler.samples,
        });
        console.log(`${runId}: ${JSON.stringify(statuses)} in ${wallS.toFixed(1)}s wall, ${windowS.toFixed(1)}s sample window, ${peaks.length} worker process(es)`);
      }
    }
  } finally {
    await server.close();
    await sites.close();
  }
  printReport(rows, latencyMs);
  const raw = path.join(tempDirFor('results'), 'throughput.json');
  fs.writeFileSync(raw, JSON.stringify(rows, null, 2));
  console.log(`\nraw rows: ${raw}`);
}

function printReport(rows: RunRow[], latencyMs: number): void {
  // The largest peak any worker process reached (Playwright may replace a worker; short-lived ones peak lower).
  const busiest = (r: RunRow) => ({ nodeMb: Math.max(0, ...r.workerPeaks.map(p => p.nodeMb)), treeMb: Math.max(0, ...r.workerPeaks.map(p => p.treeMb)) });
  const perMinute = (r: RunRow) => (r.samples / r.windowS) * 60;
  const base = (r: RunRow) => rows.find(b => b.decider === r.decider && b.workers === Math.min(...rows.filter(x => x.decider === r.decider).map(x => x.workers)))!;
  console.log(`\nthroughput benchmark — ${TASK}, ${rows[0]?.samples ?? 0} samples per run; model = scripted, ${latencyMs} ms per turn\n`);
  console.log(
    table(
      ['decider', 'workers', 'statuses', 'samples/min', '× vs fewest workers', 'wall s', 's/sample', 'turns/sample', 'prompt tok/sample', 'output tok/sample', 'worker procs', 'peak RSS/worker (node) MB', 'peak PSS/worker (+browser) MB', 'PSS/worker × vs fewest'],
      rows.map(r => [
        r.decider,
        r.workers,
        Object.entries(r.statuses).map(([k, v]) => `${v} ${k}`).join(', '),
        perMinute(r),
        (perMinute(r) / perMinute(base(r))).toFixed(2),
        r.wallS,
        r.sampleS,
        r.turnsPerSample,
        Math.round(r.promptTokensPerSample),
        Math.round(r.outputTokensPerSample),
        r.workerPeaks.length,
        busiest(r).nodeMb,
        busiest(r).treeMb,
        (busiest(r).treeMb / busiest(base(r)).treeMb).toFixed(2),
      ]),
    ),
  );
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
