import { capabilitiesOf } from '../../agent/decide/model-capabilities';
import { listPrice } from '../../agent/decide/model-cost';
/**
 * The cost model of docs/scale.md as arithmetic: measured figures per sample (./measured.ts) times the assumptions
 * a user edits (./assumptions.json). Pure functions, so the doc's tables are whatever this prints.
 */

export interface Tokens {
  calls: number;
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
}

/** One sample's model use, split by the model that bills it: AGENT_MODEL (decide, vision, judge) and AGENT_FAST_MODEL (step summaries, run-memory tips). */
export interface SampleUse {
  main: Tokens;
  fast: Tokens;
}

export interface Workflow {
  task: string;
  judged: boolean;
  /** Per sample, from bench/recipe (scripted model, 60 rows; people_enrichment 30, hr_form 12). */
  modelOnly: SampleUse;
  recorded: SampleUse;
  replayedBatch: SampleUse;
  /** Judged tasks only: every replay asks for its own judgment. */
  replayedInline?: SampleUse;
  /** Seconds one sample keeps a worker busy besides waiting for the model (latency-0 run of bench/recipe). */
  agentSecondsModelOnly: number;
  agentSecondsReplay: number;
  /** Page loads per sample on the busiest host, and the task's minimum seconds between them (rate_limits). */
  navigationsPerSample: number;
  hostIntervalSeconds: number;
}

export type Mode = 'model-only' | 'record+replay' | 'record+replay, batch judge';

export const RECORDED_SAMPLES = 2;

export function scale(t: Tokens, by: number): Tokens {
  return { calls: t.calls * by, input: t.input * by, cacheWrite: t.cacheWrite * by, cacheRead: t.cacheRead * by, output: t.output * by };
}

export function add(a: Tokens, b: Tokens): Tokens {
  return {
    calls: a.calls + b.calls,
    input: a.input + b.input,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    cacheRead: a.cacheRead + b.cacheRead,
    output: a.output + b.output,
  };
}

const scaleUse = (u: SampleUse, by: number): SampleUse => ({ main: scale(u.main, by), fast: scale(u.fast, by) });
const addUse = (a: SampleUse, b: SampleUse): SampleUse => ({ main: add(a.main, b.main), fast: add(a.fast, b.fast) });

/** What a replayed sample uses: inline judgment asks per sample; the batch judge (and tasks without judgment) do not. */
function replayed(w: Workflow, mode: Mode): SampleUse {
  return mode === 'record+replay' && w.replayedInline ? w.replayedInline : w.replayedBatch;
}

/** Every call and token of a run of `samples`: model-only decides all; a recorded run decides the first two, then replays. */
export function runTokens(w: Workflow, mode: Mode, samples: number): SampleUse {
  if (mode === 'model-only') return scaleUse(w.modelOnly, samples);
  return addUse(scaleUse(w.recorded, RECORDED_SAMPLES), scaleUse(replayed(w, mode), samples - RECORDED_SAMPLES));
}

/** Thinking tokens a call spends on a model that thinks when asked nothing about it (the current models). */
export interface ThinkingPerCall {
  main: number;
  fast: number;
}

/** The run's tokens with each call's thinking added to its output, on the models that think by default. */
export function withThinking(use: SampleUse, main: string, fast: string, thinking: ThinkingPerCall): SampleUse {
  const add = (t: Tokens, model: string, perCall: number): Tokens =>
    capabilitiesOf(model).thinking.whenOmitted === 'adaptive' ? { ...t, output: t.output + t.calls * perCall } : t;
  return { main: add(use.main, main, thinking.main), fast: add(use.fast, fast, thinking.fast) };
}

/**
 * List price of a run: AGENT_MODEL's calls at `main`'s prices, the fast model's at `fast`'s — both from the
 * capability table (agent/decide/model-capabilities.ts), Haiku 5.5's long-prompt tier chosen by the average prompt.
 */
export function dollars(use: SampleUse, main: string, fast: string): number {
  const price = (model: string, tokens: Tokens) => {
    if (tokens.calls === 0) return 0;
    const dollars = listPrice(model, tokens);
    if (dollars === undefined) throw new Error(`bench/scale: ${model} has no prices in agent/decide/model-capabilities.ts`);
    return dollars;
  };
  return price(main, use.main) + price(fast, use.fast);
}

export const totalCalls = (use: SampleUse) => use.main.calls + use.fast.calls;

/** Seconds one sample holds a worker: the agent's own time plus every model call's wait. */
export function sampleSeconds(w: Workflow, mode: Mode, modelSecondsPerCall: number): number {
  if (mode === 'model-only') return w.agentSecondsModelOnly + totalCalls(w.modelOnly) * modelSecondsPerCall;
  return w.agentSecondsReplay + totalCalls(replayed(w, mode)) * modelSecondsPerCall;
}

export interface MachinePlan {
  /** Samples per minute one machine sustains: bounded by its workers' memory and by its CPU. */
  perMachinePerMinute: number;
  workersPerMachine: number;
  bound: 'memory' | 'cpu';
}

export interface MachineFacts {
  memoryGb: number;
  reservedGb: number;
  /** PSS of one worker with its browser (local browsers), measured by bench/throughput. */
  workerGb: number;
  /** Samples per minute the machine's cores sustain when nothing waits (measured for replays, scaled by agent time). */
  cpuSamplesPerMinute: number;
}

export function machinePlan(secondsPerSample: number, facts: MachineFacts): MachinePlan {
  const workersPerMachine = Math.max(1, Math.floor((facts.memoryGb - facts.reservedGb) / facts.workerGb));
  const byMemory = (workersPerMachine * 60) / secondsPerSample;
  return byMemory <= facts.cpuSamplesPerMinute
    ? { perMachinePerMinute: byMemory, workersPerMachine, bound: 'memory' }
    : { perMachinePerMinute: facts.cpuSamplesPerMinute, workersPerMachine, bound: 'cpu' };
}

/**
 * What a run at `samplesPerMinute` asks of AGENT_MODEL's rate limits, per minute: requests, input that counts (cache
 * reads do not), output with `thinkingPerCall` added to each call. (The fast model's few calls have limits of their own.)
 */
export function apiRates(w: Workflow, mode: Mode, samples: number, samplesPerMinute: number, thinkingPerCall = 0) {
  const t = runTokens(w, mode, samples).main;
  const perSample = (n: number) => (n / samples) * samplesPerMinute;
  return {
    requests: perSample(t.calls),
    inputTokens: perSample(t.input + t.cacheWrite),
    outputTokens: perSample(t.output + t.calls * thinkingPerCall),
  };
}

/** The most samples per minute a site allows: the task's interval between page loads on its busiest host. */
export function siteSamplesPerMinute(w: Workflow): number {
  return w.hostIntervalSeconds > 0 ? 60 / (w.navigationsPerSample * w.hostIntervalSeconds) : Number.POSITIVE_INFINITY;
}
