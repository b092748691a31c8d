/**
 * Prints the tables of docs/scale.md: what N samples of each reference workflow cost in model tokens and dollars,
 * how long they take on how many machines, and what they ask of the API and the site — from the measured figures in
 * ./measured.ts and the editable ./assumptions.json.
 * Usage: npx tsx bench/scale/run.ts
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { capabilitiesOf } from '../../agent/decide/model-capabilities';
import { table } from '../lib/stats';
import { MACHINE, WORKFLOWS } from './measured';
import {
  apiRates,
  dollars,
  withThinking,
  machinePlan,
  runTokens,
  sampleSeconds,
  siteSamplesPerMinute,
  totalCalls,
  type Mode,
  type SampleUse,
  type Workflow,
} from './model';

interface Assumptions {
  samples: number;
  /** AGENT_FAST_MODEL: step summaries and run-memory tips are billed at its prices whichever AGENT_MODEL is priced. */
  fast_model: string;
  /** The AGENT_MODEL columns of the cost table; prices come from the capability table. */
  models: string[];
  thinking_tokens_per_call: { main: number; fast: number };
  model_seconds_per_call: { value: number };
  machine: { cores: number; memory_gb: number; memory_reserved_gb: number };
  target_hours: number;
  rate_limits: {
    recorded_on: string;
    tiers: Record<string, { requests_per_minute: number; input_tokens_per_minute: number; output_tokens_per_minute: number }>;
  };
}

const assumptions = JSON.parse(fs.readFileSync(path.join(__dirname, 'assumptions.json'), 'utf8')) as Assumptions;
const N = assumptions.samples;
const MODES: Mode[] = ['model-only', 'record+replay', 'record+replay, batch judge'];
const models = assumptions.models;
for (const model of [...models, assumptions.fast_model])
  if (!capabilitiesOf(model).prices) throw new Error(`bench/scale/assumptions.json: ${model} has no prices in agent/decide/model-capabilities.ts`);
const pricesRecorded = [...new Set([...models, assumptions.fast_model].map(m => capabilitiesOf(m).prices!.recordedOn))].join(', ');

const modesOf = (w: Workflow): Mode[] => (w.judged ? MODES : MODES.slice(0, 2));
const millions = (n: number) => (n / 1e6).toFixed(n >= 1e8 ? 0 : 1);
const money = (n: number) => (n >= 100 ? `$${Math.round(n).toLocaleString('en-US')}` : `$${n.toFixed(2)}`);

// The CPU of a tracker replay was measured (bench/throughput); other page work is scaled by its agent seconds.
const trackerAgentSecondsReplay = WORKFLOWS.find(w => w.task === 'tracker_tickets')!.agentSecondsReplay;

function plan(w: Workflow, mode: Mode) {
  const seconds = sampleSeconds(w, mode, assumptions.model_seconds_per_call.value);
  const pageCpuSeconds = (agentSeconds: number) => MACHINE.cpuSecondsPerReplay * (agentSeconds / trackerAgentSecondsReplay);
  const cpuSecondsPerSample =
    mode === 'model-only'
      ? MACHINE.cpuSecondsPerModelTurn * totalCalls(w.modelOnly) + pageCpuSeconds(w.agentSecondsModelOnly)
      : pageCpuSeconds(w.agentSecondsReplay);
  const machine = machinePlan(seconds, {
    memoryGb: assumptions.machine.memory_gb,
    reservedGb: assumptions.machine.memory_reserved_gb,
    workerGb: MACHINE.workerGb,
    cpuSamplesPerMinute: (assumptions.machine.cores * 60) / cpuSecondsPerSample,
  });
  const oneMachineHours = N / machine.perMachinePerMinute / 60;
  const machines = Math.max(1, Math.ceil(oneMachineHours / assumptions.target_hours));
  const site = siteSamplesPerMinute(w);
  const runPerMinute = Math.min(machines * machine.perMachinePerMinute, site);
  return { seconds, machine, oneMachineHours, machines, site, runPerMinute, hours: N / runPerMinute / 60 };
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

function measuredTable(): string {
  const cells = (u: SampleUse) => [
    u.main.calls.toFixed(2),
    count(u.main.input + u.main.cacheWrite),
    count(u.main.cacheRead),
    count(u.main.output),
    u.fast.calls.toFixed(2),
    count(u.fast.input + u.fast.cacheWrite + u.fast.cacheRead),
    count(u.fast.output),
  ];
  const rows = WORKFLOWS.flatMap(w => [
    [w.task, 'model-only', ...cells(w.modelOnly), w.agentSecondsModelOnly],
    [w.task, w.judged ? 'replayed, batch judge' : 'replayed', ...cells(w.replayedBatch), w.agentSecondsReplay],
    ...(w.replayedInline ? [[w.task, 'replayed, inline judgment', ...cells(w.replayedInline), w.agentSecondsReplay]] : []),
  ]);
  return table(
    [
      'workflow',
      'sample',
      'main calls',
      'main input tok (uncached + cache write)',
      'main cache-read tok',
      'main output tok',
      'fast calls',
      'fast input tok',
      'fast output tok',
      'agent s',
    ],
    rows,
  );
}

function costTable(): string {
  const rows = WORKFLOWS.flatMap(w =>
    modesOf(w).map(mode => {
      const use = runTokens(w, mode, N);
      return [
        w.task,
        mode,
        count(totalCalls(use)),
        millions(use.main.input + use.main.cacheWrite),
        millions(use.main.cacheRead),
        millions(use.main.output),
        millions(use.fast.input + use.fast.cacheWrite + use.fast.cacheRead + use.fast.output),
        ...models.map(m =>
          money(dollars(withThinking(use, m, assumptions.fast_model, assumptions.thinking_tokens_per_call), m, assumptions.fast_model)),
        ),
      ];
    }),
  );
  return table(
    [
      'workflow',
      'mode',
      'model calls',
      'M main input tok (uncached + cache write)',
      'M main cache-read tok',
      'M main output tok',
      `M ${assumptions.fast_model} tok`,
      ...models.map(m => `AGENT_MODEL=${m}`),
    ],
    rows,
  );
}

function timeTable(): string {
  const rows = WORKFLOWS.flatMap(w =>
    modesOf(w).map(mode => {
      const p = plan(w, mode);
      return [
        w.task,
        mode,
        p.seconds.toFixed(1),
        p.machine.workersPerMachine,
        p.machine.perMachinePerMinute.toFixed(1),
        p.machine.bound,
        p.oneMachineHours.toFixed(1),
        p.machines,
        Number.isFinite(p.site) ? Math.round(p.site) : '—',
        p.hours.toFixed(1),
      ];
    }),
  );
  return table(
    [
      'workflow',
      'mode',
      's/sample in a worker',
      'workers/machine',
      'samples/min/machine',
      'machine bound by',
      'hours on 1 machine',
      `machines for ${assumptions.target_hours} h`,
      'site cap samples/min',
      'hours with them',
    ],
    rows,
  );
}

function apiTable(): string {
  const tiers = Object.entries(assumptions.rate_limits.tiers);
  const rows = WORKFLOWS.flatMap(w =>
    modesOf(w).map(mode => {
      const p = plan(w, mode);
      const thinks = capabilitiesOf(models[0]!).thinking.whenOmitted === 'adaptive';
      const rate = apiRates(w, mode, N, p.runPerMinute, thinks ? assumptions.thinking_tokens_per_call.main : 0);
      const fits = tiers.map(([, limit]) => {
        const use = Math.max(
          rate.requests / limit.requests_per_minute,
          rate.inputTokens / limit.input_tokens_per_minute,
          rate.outputTokens / limit.output_tokens_per_minute,
        );
        return use <= 1 ? `fits (${Math.round(use * 100)}%)` : `${use.toFixed(1)}× over`;
      });
      return [
        w.task,
        mode,
        p.runPerMinute.toFixed(0),
        Math.round(rate.requests),
        Math.round(rate.inputTokens).toLocaleString('en-US'),
        Math.round(rate.outputTokens).toLocaleString('en-US'),
        ...fits,
      ];
    }),
  );
  return table(
    ['workflow', 'mode', 'samples/min (plan)', 'requests/min', 'input tok/min (counted)', 'output tok/min', ...tiers.map(([name]) => `${name} tier`)],
    rows,
  );
}

console.log(
  `${N.toLocaleString('en-US')} samples per workflow; list prices from agent/decide/model-capabilities.ts, recorded on ${pricesRecorded}; ${assumptions.model_seconds_per_call.value} s per model call; ${assumptions.machine.cores}-core ${assumptions.machine.memory_gb} GB machines; rate-limit examples recorded on ${assumptions.rate_limits.recorded_on}\n`,
);
console.log(`Measured per sample (bench/recipe; agent s = seconds a sample holds its worker besides waiting for the model)\n\n${measuredTable()}\n`);
console.log(
  `Model use and list price (AGENT_MODEL as named; step summaries and run-memory tips on ${assumptions.fast_model}; on models that think by default, ${assumptions.thinking_tokens_per_call.main} thinking tokens per AGENT_MODEL call and ${assumptions.thinking_tokens_per_call.fast} per fast-model call added to the measured output)\n\n${costTable()}\n`,
);
console.log(`Time and machines\n\n${timeTable()}\n`);
function browserServerText(): string {
  const usable = assumptions.machine.memory_gb - assumptions.machine.memory_reserved_gb;
  const perRunner = Math.floor(usable / MACHINE.workerNodeGb);
  const perLocal = Math.floor(usable / MACHINE.workerGb);
  const perServer = Math.floor(usable / MACHINE.serverGbPerWorker);
  return [
    `local browsers: ${MACHINE.workerGb.toFixed(2)} GB per worker (its node process and its Chromium): ${perLocal} workers per ${assumptions.machine.memory_gb} GB machine`,
    `browser server: ${MACHINE.workerNodeGb.toFixed(2)} GB per worker on the runner (node alone): ${perRunner} workers per ${assumptions.machine.memory_gb} GB runner, memory-wise;`,
    `  ${MACHINE.serverGbPerWorker.toFixed(2)} GB per connected worker on the browser machine: ${perServer} workers' browsers per ${assumptions.machine.memory_gb} GB of it`,
  ].join('\n');
}

console.log(`Memory per worker (bench/throughput)\n\n${browserServerText()}\n`);
console.log(
  `What the plan asks of AGENT_MODEL's rate limits per minute (AGENT_MODEL=${models[0]}, its thinking in the output; cache reads do not count towards input limits)\n\n${apiTable()}`,
);
