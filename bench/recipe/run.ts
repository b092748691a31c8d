/**
 * Record once, replay many: model turns, tokens and throughput per sample — the scripted model on every sample
 * (model-only) vs the model on the first sample, a recipe compiled from it (AGENT_RECORD=1) and replayed on the
 * rest with self-heal (record-then-replay) — and how many ground-truth fields the compiled recipe reproduces
 * when replayed alone (no model at all).
 *
 * Usage: npx tsx bench/recipe/run.ts [--tasks tracker_tickets,commit_audit] [--samples 60] [--model-samples 60] [--workers 2] [--latency 0] [--judge batch|inline] [--distill off|on]
 * (--distill on: run memory asks the fast model for tips after each model-decided sample, as bwa does by default.)
 */
import type { Browser } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DeciderMode } from '../../agent/decide/select-decider';
import type { ActionLogEntry, Result } from '../../agent/evidence/result-schema';
import { sourceFromResult } from '../../agent/recipe/compile';
import { compileFromSamples } from '../../agent/recipe/compile-samples';
import { recipeRecorder, saveCompiled } from '../../agent/recipe/record';
import { ModelClient } from '../../agent/decide/model-client';
import { modelSettings } from '../../agent/decide/model-settings';
import { emptyUsage, usageTokens } from '../../agent/evidence/result-schema';
import { noMasking } from '../../agent/secrets/masker';
import { pendingJudgments } from '../../agent/judge/pending';
import { JUDGE_SAMPLE_ID } from '../../agent/judge/judge-prompt';
import { judgePending } from '../../agent/judge/run-judge';
import { sampleDir, settings } from '../../agent/settings';
import { chooseSources } from '../../agent/recipe/run-sources';
import { sameValue } from '../../agent/recipe/patterns';
import { recipeStore } from '../../agent/recipe/recipe-store';
import { SampleSession } from '../../agent/session';
import { authStatePath } from '../../agent/task/auth-profile';
import { loadTaskFile, type LoadedTask } from '../../agent/task/load-task';
import { loadSamplesCsv } from '../../agent/task/samples';
import { startModelServer, type ModelServer, type ScriptInput } from '../../fixtures/model-server';
import { ensureFixtureSites } from '../../fixtures/serve';
import { defineCommand, type OptionValues } from '../../agent/cli/command';
import { wholeNumberText } from '../../agent/env/kinds';
import { CONTEXT_OPTIONS, launchChromium } from '../lib/browser';
import { runBench } from '../lib/command';
import { sum, table } from '../lib/stats';
import { tempDirFor } from '../lib/temp';
import { BY_CLASS_HEADER, CLASS_LABEL, perSampleByClass } from './by-model';
import { WORKFLOWS, type Workflow } from './workflows';

type Row = Record<string, string>;

interface Phase {
  results: Result[];
  logs: ActionLogEntry[][];
  seconds: number;
}

/** The task as shipped, minus its hand-written recipe: only the model and what is compiled from it decide. */
function taskWithoutRecipe(taskId: string, tag: string): LoadedTask {
  const dir = tempDirFor(`tasks-${taskId}-${tag}`);
  const spec = JSON.parse(fs.readFileSync(path.resolve('tasks', `${taskId}.json`), 'utf8'));
  delete spec.recipe;
  delete spec.$schema;
  fs.writeFileSync(path.join(dir, `${taskId}.json`), JSON.stringify(spec, null, 2));
  const inputs = path.resolve('tasks', 'inputs', taskId);
  if (fs.existsSync(inputs)) fs.cpSync(inputs, path.join(dir, 'inputs', taskId), { recursive: true });
  process.env.AGENT_TASKS_DIR = dir;
  return loadTaskFile(path.join(dir, `${taskId}.json`));
}

/** Recipes are recorded as the fixture records them: the record-then-replay phase relies on it. */
const recordRecipe = recipeRecorder(options => SampleSession.prepare(options));

async function runSamples(
  browser: Browser,
  task: LoadedTask,
  rows: readonly Row[],
  mode: DeciderMode,
  workers: number,
  runId: string,
): Promise<Phase> {
  const started = Date.now();
  const results: Result[] = new Array(rows.length);
  const logs: ActionLogEntry[][] = new Array(rows.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < rows.length; i = next++) {
      const row = rows[i]!;
      const profile = task.spec.auth_profile;
      const context = await browser.newContext({ ...CONTEXT_OPTIONS, ...(profile ? { storageState: authStatePath(profile) } : {}) });
      try {
        const sample = { sample_id: row.sample_id!, row, line: i + 2, source: 'bench' };
        const session = await SampleSession.prepare({
          task,
          sample,
          context,
          page: await context.newPage(),
          runId,
          attempt: 0,
          deciderMode: mode,
          dir: sampleDir(runId, task.spec.task_id, row.sample_id!),
          afterLoop: recordRecipe,
        });
        results[i] = await session.run();
        logs[i] = [...session.recorder.log];
      } finally {
        await context.close();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, rows.length) }, worker));
  return { results, logs, seconds: (Date.now() - started) / 1000 };
}

/** What a model answers when the replay hands it a sample with the data already collected: its closing turn(s). */
function closingTurns(script: ScriptInput): ScriptInput {
  const steps = (script as { steps: Array<{ tool?: string }> }).steps;
  let first = steps.length - 1;
  while (first > 0 && (steps[first - 1]?.tool === 'done' || steps[first - 1]?.tool === 'fail')) first--;
  return { ...script, steps: steps.slice(first) } as ScriptInput;
}

const tokens = (r: Result) => usageTokens(r.usage);

function accuracy(
  results: readonly Result[],
  rows: readonly Row[],
  expected: (row: Row) => Record<string, unknown> | undefined,
): { right: number; total: number; misses: string[] } {
  let right = 0;
  let total = 0;
  const misses: string[] = [];
  results.forEach((result, i) => {
    const want = expected(rows[i]!);
    if (!want) return;
    for (const [field, value] of Object.entries(want)) {
      total += 1;
      if (sameValue(result.extracted[field]?.value ?? null, value)) right += 1;
      else if (misses.length < 8)
        misses.push(
          `${result.sample_id}.${field}: ${JSON.stringify(result.extracted[field]?.value ?? null)} ≠ ${JSON.stringify(value)} (${result.status}${result.error ? `: ${result.error.slice(0, 80)}` : ''})`,
        );
    }
  });
  return { right, total, misses };
}

async function benchTask(
  browser: Browser,
  server: ModelServer,
  workflow: Workflow,
  options: { samples: number; modelSamples: number; workers: number },
) {
  const task = taskWithoutRecipe(workflow.task, 'record');
  const expected = await workflow.truth();
  const csv = path.resolve('tasks', 'inputs', `${workflow.task}.csv`);
  let rows: Row[] = loadSamplesCsv(task.spec, csv).map(s => s.row);
  if (workflow.rows && rows.length < options.samples) rows = await workflow.rows(undefined);
  rows = rows.slice(0, options.samples);
  await workflow.prepare?.(browser);
  const scripts = new Map(rows.map(row => [row.sample_id!, workflow.script(row)]));

  server.reset();
  for (const [id, script] of scripts) server.setScript(workflow.task, id, script);
  const modelRows = rows.slice(0, options.modelSamples);
  const modelOnly = await runSamples(browser, task, modelRows, 'model', options.workers, `bench-model-${workflow.task}`);

  // bwa recipe compile over the model-only run: the richest done sample, checked on a few others.
  const compiledTask = taskWithoutRecipe(workflow.task, 'compiled');
  let compileProblem: string | undefined;
  let compiledSteps = 0;
  try {
    const { source, others } = chooseSources(
      modelOnly.results.map((result, i) => ({ result, source: sourceFromResult(result, modelOnly.logs[i]!) })),
    );
    const from = await compileFromSamples({
      prepare: o => SampleSession.prepare(o),
      task: compiledTask,
      source,
      others,
      browser,
      runId: `bench-compile-${workflow.task}`,
    });
    compiledSteps = (await saveCompiled(compiledTask, from.compiled, from.source, { kind: 'explicit' })).entry?.steps.length ?? 0;
  } catch (error) {
    compileProblem = error instanceof Error ? error.message : String(error);
  }
  const replayOnly = compileProblem
    ? undefined
    : await runSamples(browser, compiledTask, rows, 'recipe', options.workers, `bench-replay-${workflow.task}`);
  process.env.AGENT_TASKS_DIR = path.dirname(task.file);

  // Record then replay: the first AGENT_RECORD_SAMPLES rows by the model, side by side (the last to finish compiles
  // the recipe over them), then the rest replayed; under AGENT_JUDGE=batch the judgments come from the batch judge.
  server.reset();
  const recordCount = settings.recordSamples;
  for (const [id, script] of scripts)
    server.setScript(workflow.task, id, rows.slice(0, recordCount).some(r => r.sample_id === id) ? script : closingTurns(script));
  server.setScript(workflow.task, JUDGE_SAMPLE_ID, { text: [{ contains: 'Judge these', answer: JSON.stringify(judgeAnswers(scripts)) }] });
  const runId = `bench-record-${workflow.task}`;
  process.env.AGENT_RECORD = '1';
  const first = await runSamples(browser, task, rows.slice(0, recordCount), 'auto', options.workers, runId);
  delete process.env.AGENT_RECORD;
  const recorded = recipeStore().lookup(task);
  const rest = await runSamples(browser, task, rows.slice(recordCount), 'auto', options.workers, runId);
  const computed = workflow.judgeFromFields ? computedJudgeAnswers(workflow, rest.results) : {};
  server.setScript(workflow.task, JUDGE_SAMPLE_ID, {
    text: [{ contains: 'Judge these', answer: JSON.stringify({ ...judgeAnswers(scripts), ...computed }) }],
  });
  const judgeStarted = Date.now();
  const judged = await judgeRun(task, runId, rows);
  const recordReplay: Phase = {
    results: [...first.results, ...rest.results].map(r => judged.results.get(r.sample_id) ?? r),
    logs: [...first.logs, ...rest.logs],
    seconds: first.seconds + rest.seconds + (Date.now() - judgeStarted) / 1000,
  };
  const revision = recipeStore().lookup(task);
  const firstNote = first.results.flatMap(r => r.notes).find(n => n.startsWith('recipe compiled'));
  return {
    task: workflow.task,
    rows,
    modelOnly,
    recordReplay,
    replayOnly,
    compileProblem,
    compiledSteps,
    expected,
    recorded,
    revision,
    firstNote,
    judge: judged.usage,
    batches: judged.batches,
  };
}

/** What the scripted model answers the batch judge: each sample's judgment and stated fields, from its script's done. */
function judgeAnswers(scripts: Map<string, ScriptInput>): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const [id, script] of scripts) {
    const done = [...((script as { steps?: Array<{ tool?: string; args?: Record<string, unknown> }> }).steps ?? [])]
      .reverse()
      .find(s => s.tool === 'done');
    if (done?.args?.judgment) answers[id] = { judgment: done.args.judgment, fields: done.args.extracted ?? {} };
  }
  return answers;
}

/** What the scripted batch judge answers for samples whose closing turn the script works out from the page: from the fields the judge is sent. */
function computedJudgeAnswers(workflow: Workflow, results: readonly Result[]): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const result of results) {
    if (!result.judgment_pending) continue;
    const fields = Object.fromEntries(Object.entries(result.extracted).map(([field, { value }]) => [field, value]));
    const screenshots = result.artifacts.filter(a => a.kind === 'screenshot').map(a => a.filename);
    answers[result.sample_id] = workflow.judgeFromFields!(fields, screenshots);
  }
  return answers;
}

/** The judge project's work, in process: the run's pending samples judged in batches of AGENT_JUDGE_BATCH. */
async function judgeRun(task: LoadedTask, runId: string, rows: readonly Row[]) {
  const pending = pendingJudgments(
    runId,
    task.spec.task_id,
    rows.map(r => r.sample_id!),
  );
  if (!pending.length) return { results: new Map<string, Result>(), usage: emptyUsage(), batches: 0 };
  const run = await judgePending({
    client: new ModelClient(modelSettings()),
    task: task.spec,
    runId,
    pending,
    batchSize: settings.judgeBatchSize,
    masker: noMasking,
  });
  return { results: new Map(run.judged.map(j => [j.result.sample_id, j.result])), usage: run.usage, batches: run.batches };
}

const cell = (c: string | number) => (typeof c === 'number' && !Number.isInteger(c) ? c.toFixed(c < 10 ? 2 : 0) : c);

const benchCommand = defineCommand({
  program: 'npx tsx',
  name: 'bench/recipe/run.ts',
  summary: 'Model-only against record-then-replay on the reference workflows, with the scripted model',
  options: {
    tasks: { type: 'string', placeholder: 'ids', help: 'the workflows to run, comma-separated (default: all)' },
    samples: { type: 'string', placeholder: 'n', value: wholeNumberText(1), help: 'samples per workflow (default 60)' },
    'model-samples': { type: 'string', placeholder: 'n', value: wholeNumberText(1), help: 'samples of the model-only phase (default: --samples)' },
    workers: { type: 'string', placeholder: 'n', value: wholeNumberText(1), help: 'parallel contexts (default 2)' },
    latency: { type: 'string', placeholder: 'ms', value: wholeNumberText(0), help: "the scripted model's latency per answer (default 0)" },
    distill: { type: 'string', placeholder: 'on|off', help: 'AGENT_MEMORY_DISTILL (default off)' },
    judge: { type: 'string', placeholder: 'inline|batch', help: 'AGENT_JUDGE (default batch)' },
  },
  positionals: [],
  run: async ({ options }) => {
    await main(options);
    return 0;
  },
});

async function main(given: OptionValues<typeof benchCommand.options>): Promise<void> {
  const wanted = (given.tasks ?? WORKFLOWS.map(w => w.task).join(',')).split(',');
  const latency = given.latency ?? 0;
  const options = {
    samples: given.samples ?? 60,
    modelSamples: given['model-samples'] ?? given.samples ?? 60,
    workers: given.workers ?? 2,
  };
  const sites = await ensureFixtureSites();
  const server = await startModelServer({ port: 0, latencyMs: latency });
  const reports = tempDirFor('reports');
  Object.assign(process.env, {
    ANTHROPIC_API_KEY: 'bench',
    ANTHROPIC_BASE_URL: server.url,
    AGENT_RUN_ID: 'bench-recipe',
    AGENT_REPORTS_DIR: reports,
    AGENT_AUTH_DIR: tempDirFor('auth'),
    AGENT_MEMORY_DISTILL: given.distill ?? 'off',
    AGENT_MODEL_RETRIES: '1',
    AGENT_JUDGE: given.judge ?? 'batch',
  });
  const browser = await launchChromium();
  const rows: Array<Array<string | number>> = [];
  const splits: Array<Array<string | number>> = [];
  const details: string[] = [];
  try {
    for (const workflow of WORKFLOWS.filter(w => wanted.includes(w.task))) {
      const b = await benchTask(browser, server, workflow, options);
      const perSample = (phase: Phase, f: (r: Result) => number) => sum(phase.results.map(f)) / Math.max(1, phase.results.length);
      const turnsModel = perSample(b.modelOnly, r => r.usage.model_calls);
      // The batch judge's calls are shared by its samples: counted once, spread over the phase.
      const turnsRecord = perSample(b.recordReplay, r => r.usage.model_calls) + b.judge.model_calls / Math.max(1, b.recordReplay.results.length);
      const perMinute = (phase: Phase) => (phase.results.length / phase.seconds) * 60;
      const exact = b.replayOnly
        ? accuracy(b.replayOnly.results, b.rows, b.expected)
        : { right: 0, total: 0, misses: [`no recipe: ${b.compileProblem}`] };
      const hybrid = accuracy(b.recordReplay.results, b.rows, b.expected);
      rows.push([
        b.task,
        b.rows.length,
        turnsModel,
        turnsRecord,
        turnsRecord > 0 ? `${(turnsModel / turnsRecord).toFixed(0)}×` : '∞',
        Math.round(perSample(b.modelOnly, tokens)),
        Math.round(perSample(b.recordReplay, tokens) + usageTokens(b.judge) / Math.max(1, b.recordReplay.results.length)),
        perMinute(b.modelOnly),
        perMinute(b.recordReplay),
        `${exact.right}/${exact.total}`,
        `${hybrid.right}/${hybrid.total}`,
      ]);
      const recordedCount = Math.min(settings.recordSamples, b.recordReplay.results.length);
      // How long one sample holds its worker (result.json start → finish): at --latency 0, the agent's own time.
      const seconds = (results: readonly Result[]) =>
        sum(results.map(r => Date.parse(r.finished_at) - Date.parse(r.started_at))) / 1000 / Math.max(1, results.length);
      const byClass = (mode: string, results: readonly Result[], shared = emptyUsage()) =>
        (['main', 'fast'] as const).map(modelClass => [
          b.task,
          mode,
          results.length,
          CLASS_LABEL[modelClass],
          ...perSampleByClass(results, shared, modelClass),
          seconds(results),
        ]);
      splits.push(
        ...byClass('model-only', b.modelOnly.results),
        ...byClass('record+replay: recorded', b.recordReplay.results.slice(0, recordedCount)),
        // The batch judge's calls judge the replayed samples: spread over them.
        ...byClass('record+replay: replayed (+ judge)', b.recordReplay.results.slice(recordedCount), b.judge),
        ...(b.replayOnly ? byClass('compiled recipe alone', b.replayOnly.results) : []),
      );
      // As each workflow ends: a long run that fails later still leaves what it measured.
      console.log(
        `${b.task} done — per sample, by kind:\n${table(
          ['task', 'mode', 'samples', ...BY_CLASS_HEADER, 's/sample'],
          splits.filter(r => r[0] === b.task).map(r => r.map(cell)),
        )}`,
      );
      const healed = b.recordReplay.results.filter(r => r.notes.some(n => n.startsWith('self-heal'))).length;
      details.push(
        `${b.task}: compiled from the model-only run: ${b.compileProblem ? 'failed' : `${b.compiledSteps} steps`}; record-then-replay: ${b.firstNote ?? 'no recipe recorded'}; ${healed} of ${b.rows.length - settings.recordSamples} replays handed a step to the model; batch judge (AGENT_JUDGE=${settings.judge}, ${settings.judgeBatchSize} per call): ${b.judge.model_calls} calls in ${b.batches} batches; recipe revision at the end ${b.revision.hit ? b.revision.entry.revision : '—'}` +
          `\n  statuses model-only: ${statusCounts(b.modelOnly.results)} · record-then-replay: ${statusCounts(b.recordReplay.results)} · replay only: ${b.replayOnly ? statusCounts(b.replayOnly.results) : '—'}` +
          (exact.misses.length ? `\n  replay-only misses: ${exact.misses.join('; ')}` : '') +
          (hybrid.misses.length ? `\n  record-then-replay misses: ${hybrid.misses.join('; ')}` : ''),
      );
    }
  } finally {
    await browser.close();
    await server.close();
    await sites.close();
  }
  console.log(`recipe benchmark — scripted model (latency ${latency} ms), ${options.workers} parallel contexts\n`);
  console.log(
    table(
      [
        'task',
        'samples',
        'turns/sample model-only',
        'turns/sample record+replay',
        'fewer turns',
        'tokens/sample model-only',
        'tokens/sample record+replay',
        'samples/min model-only',
        'samples/min record+replay',
        'fact fields: compiled recipe alone',
        'fact fields: record+replay',
      ],
      rows,
    ),
  );
  // What a price list needs: uncached input, cache writes, cache reads and output are billed at different rates.
  console.log(`\nper sample, by kind (a price list bills each differently; batch-judge calls spread over the replayed samples) — docs/scale.md\n`);
  console.log(
    table(
      ['task', 'mode', 'samples', ...BY_CLASS_HEADER, 's/sample'],
      splits.map(r => r.map(cell)),
    ),
  );
  console.log(`\n${details.join('\n')}`);
}

function statusCounts(results: readonly Result[]): string {
  const counts = new Map<string, number>();
  for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${n} ${s}`).join(', ');
}

runBench(benchCommand);
