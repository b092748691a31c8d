/**
 * Prints the tables of docs/scale.md: what N samples of each reference workflow cost in model tokens and dollars,
 * how long they take on how many machines, and what they ask of the API and the site — from the measured figures in
 * ./measured.ts and the editable ./assumptions.json.
 * Usage: npx tsx bench/scale/run.ts
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { table } from '../lib/stats';
import { MACHINE, WORKFLOWS } from './measured';
import { apiRates, dollars, machinePlan, runTokens, sampleSeconds, siteSamplesPerMinute, type Mode, type Price, type Tokens, type Workflow } from './model';

interface Assumptions {
  samples: number;
  prices: { as_of: string; per_million_tokens: Record<string, Price> };
  model_seconds_per_call: { value: number };
  machine: { cores: number; memory_gb: number; memory_reserved_gb: number };
  target_hours: number;
  rate_limits: { as_of: string; tiers: Record<string, { requests_per_minute: number; input_tokens_per_minute: number; output_tokens_per_minute: number }> };
}

const assumptions = JSON.parse(fs.readFileSync(path.join(__dirname, 'assumptions.json'), 'utf8')) as Assumptions;
const N = assumptions.samples;
const MODES: Mode[] = ['model-only', 'record+replay', 'record+replay, batch judge'];
const models = Object.keys(assumptions.prices.per_million_tokens);

const modesOf = (w: Workflow): Mode[] => (w.judged ? MODES : MODES.slice(0, 2));
const millions = (n: number) => (n / 1e6).toFixed(n >= 1e8 ? 0 : 1);
const money = (n: number) => (n >= 100 ? `$${Math.round(n).toLocaleString('en-US')}` : `$${n.toFixed(2)}`);

function plan(w: Workflow, mode: Mode) {
  const seconds = sampleSeconds(w, mode, assumptions.model_seconds_per_call.value);
  const cpuSecondsPerSample = mode === 'model-only' ? MACHINE.cpuSecondsPerModelTurn * w.modelOnly.calls + MACHINE.cpuSecondsPerReplay * (w.agentSecondsModelOnly / MACHINE.trackerAgentSecondsReplay) : MACHINE.cpuSecondsPerReplay * (w.agentSecondsReplay / MACHINE.trackerAgentSecondsReplay);
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

function measuredTable(): string {
  const cells = (t: Tokens) => [t.calls.toFixed(2), Math.round(t.input + t.cacheWrite).toLocaleString('en-US'), Math.round(t.cacheRead).toLocaleString('en-US'), Math.round(t.output).toLocaleString('en-US')];
  const rows = WORKFLOWS.flatMap(w => [
    [w.task, 'model-only', ...cells(w.modelOnly), w.agentSecondsModelOnly],
    [w.task, w.judged ? 'replayed, batch judge' : 'replayed', ...cells(w.replayedBatch), w.agentSecondsReplay],
    ...(w.replayedInline ? [[w.task, 'replayed, inline judgment', ...cells(w.replayedInline), w.agentSecondsReplay]] : []),
  ]);
  return table(['workflow', 'sample', 'model calls', 'input tok (uncached + cache write)', 'cache-read tok', 'output tok', 'agent s'], rows);
}

function costTable(): string {
  const rows = WORKFLOWS.flatMap(w =>
    modesOf(w).map(mode => {
      const t = runTokens(w, mode, N);
      return [w.task, mode, Math.round(t.calls).toLocaleString('en-US'), millions(t.input + t.cacheWrite), millions(t.cacheRead), millions(t.output), ...models.map(m => money(dollars(t, assumptions.prices.per_million_tokens[m]!)))];
    }),
  );
  return table(['workflow', 'mode', 'model calls', 'M input tok (uncached + cache write)', 'M cache-read tok', 'M output tok', ...models.map(m => `${m} list price`)], rows);
}

function timeTable(): string {
  const rows = WORKFLOWS.flatMap(w =>
    modesOf(w).map(mode => {
      const p = plan(w, mode);
      return [w.task, mode, p.seconds.toFixed(1), p.machine.workersPerMachine, p.machine.perMachinePerMinute.toFixed(1), p.machine.bound, p.oneMachineHours.toFixed(1), p.machines, Number.isFinite(p.site) ? Math.round(p.site) : '—', p.hours.toFixed(1)];
    }),
  );
  return table(['workflow', 'mode', 's/sample in a worker', 'workers/machine', 'samples/min/machine', 'machine bound by', 'hours on 1 machine', `machines for ${assumptions.target_hours} h`, 'site cap samples/min', 'hours with them'], rows);
}

function apiTable(): string {
  const tiers = Object.entries(assumptions.rate_limits.tiers);
  const rows = WORKFLOWS.flatMap(w =>
    modesOf(w).map(mode => {
      const p = plan(w, mode);
      const rate = apiRates(w, mode, N, p.runPerMinute);
      const fits = tiers.map(([, limit]) => {
        const use = Math.max(rate.requests / limit.requests_per_minute, rate.inputTokens / limit.input_tokens_per_minute, rate.outputTokens / limit.output_tokens_per_minute);
        return use <= 1 ? `fits (${Math.round(use * 100)}%)` : `${use.toFixed(1)}× over`;
      });
      return [w.task, mode, p.runPerMinute.toFixed(0), Math.round(rate.requests), Math.round(rate.inputTokens).toLocaleString('en-US'), Math.round(rate.outputTokens).toLocaleString('en-US'), ...fits];
    }),
  );
  return table(['workflow', 'mode', 'samples/min (plan)', 'requests/min', 'input tok/min (counted)', 'output tok/min', ...tiers.map(([name]) => `${name} tier`)], rows);
}

console.log(`${N.toLocaleString('en-US')} samples per workflow; prices as of ${assumptions.prices.as_of}; ${assumptions.model_seconds_per_call.value} s per model call; ${assumptions.machine.cores}-core ${assumptions.machine.memory_gb} GB machines; rate-limit examples as of ${assumptions.rate_limits.as_of}\n`);
console.log(`Measured per sample (bench/recipe; agent s = seconds a sample holds its worker besides waiting for the model)\n\n${measuredTable()}\n`);
console.log(`Model use and list price\n\n${costTable()}\n`);
console.log(`Time and machines\n\n${timeTable()}\n`);
console.log(`What the plan asks of the API per minute (cache reads do not count towards input limits)\n\n${apiTable()}`);
