import type { BrowserContext } from '@playwright/test';
import * as path from 'node:path';
import type { SampleRecorder } from '../loop/recorder';
import { stableStringify } from '../task/stable-json';
import type { SampleStatus } from '../evidence/result-schema';
import type { LoadedTask } from '../task/load-task';
import type { Sample } from '../task/samples';
import type { Compiled } from './compile';
import { compileFromSamples } from './compile-samples';
import type { SourceRun } from './draft';
import { RECIPE_FORMAT, type RecipeEntry } from './entry';
import type { PrepareSession } from './replay';
import { chooseSources, readRunSamples, type RunSample } from './run-sources';
import { recipeStore } from './recipe-store';
import { settings } from '../settings';
import { OWN_RECIPE_REVISION } from '../decide/select-decider';

export type SaveMode =
  /** First recipe from a model-decided sample (AGENT_RECORD=1): only when no fresh one exists. */
  | { kind: 'record' }
  /** A self-healed sample: the next revision, unless another sample already rewrote the base revision. */
  | { kind: 'repair'; baseRevision: number }
  /** `bwa recipe compile`: always written, as the next revision of whatever is stored. */
  | { kind: 'explicit' };

export interface Saved {
  entry?: RecipeEntry;
  location: string;
  /** Why nothing was written. */
  skipped?: string;
}

export async function saveCompiled(task: LoadedTask, compiled: Compiled, source: SourceRun, mode: SaveMode): Promise<Saved> {
  const store = recipeStore();
  let skipped: string | undefined;
  const entry = await store.update(task, current => {
    if (mode.kind === 'record' && current) return void (skipped = `a recipe (revision ${current.revision}) was already recorded`);
    if (mode.kind === 'repair' && current && current.revision !== mode.baseRevision)
      return void (skipped = `another sample already rewrote the recipe (revision ${current.revision})`);
    if (mode.kind === 'repair' && current && stableStringify(current.steps) === stableStringify(compiled.steps))
      return void (skipped = 'the repaired recipe is the stored one');
    const repaired =
      mode.kind === 'repair' ? (current ? { reads: domFields(current), kept: `revision ${current.revision}` } : ownRecipeBase(task)) : undefined;
    const lost = repaired ? repaired.reads.filter(f => compiled.fields[f]?.how !== 'dom') : [];
    if (lost.length) return void (skipped = `the repaired run read fewer fields from the page (${lost.join(', ')} not read): kept ${repaired!.kept}`);
    const revision = (current?.revision ?? 0) + 1;
    const reason =
      mode.kind === 'repair'
        ? `self-heal: the model repaired a failed step${current ? '' : " of the spec's own recipe"}`
        : mode.kind === 'record'
          ? 'recorded from a model run'
          : 'compiled with bwa recipe compile';
    return {
      format: RECIPE_FORMAT,
      task_id: task.spec.task_id,
      task_hash: task.hash,
      spec_recipe_hash: task.recipeHash,
      revision,
      compiled_at: new Date().toISOString(),
      source: { run_id: source.runId, sample_id: source.sampleId },
      start_url: compiled.startUrl,
      steps: compiled.steps,
      fields: compiled.fields,
      verified_on: compiled.verifiedOn,
      notes: compiled.notes,
      history: [...(current?.history ?? []), { revision, at: new Date().toISOString(), run_id: source.runId, sample_id: source.sampleId, reason }],
    };
  });
  return { entry, location: store.location(task), skipped };
}

const domFields = (entry: RecipeEntry) =>
  Object.entries(entry.fields)
    .filter(([, b]) => b.how === 'dom')
    .map(([f]) => f);

/** A repair of the spec's own recipe (none compiled yet) must read from the page every field that recipe reads. */
const ownRecipeBase = (task: LoadedTask) => ({
  reads: [...new Set((task.spec.recipe ?? []).flatMap(step => (step.action === 'extract' && typeof step.field === 'string' ? [step.field] : [])))],
  kept: `the spec's own recipe`,
});

/** A sample whose loop has just ended, as the session hands it to `afterLoop`. */
export interface FinishedSample {
  task: LoadedTask;
  sample: Sample;
  context: BrowserContext;
  runId: string;
  recorder: SampleRecorder;
  status: SampleStatus;
  /** Who decided the sample: 'model', 'recipe', 'recipe-heal'… */
  deciderKind: string;
  /** Set when a self-healing replay was repaired by the model: the revision it started from. */
  repairedFrom?: number;
}

/**
 * Run-level recipe recording, for `SessionOptions.afterLoop`: a done sample the model decided (AGENT_RECORD=1)
 * or repaired becomes the task's compiled recipe. `prepare` opens the sessions the compiler replays in.
 */
export function recipeRecorder(prepare: PrepareSession): (finished: FinishedSample) => Promise<string | undefined> {
  return async finished => {
    const recording = settings.record && finished.deciderKind === 'model';
    if (finished.status !== 'done' || !(recording || finished.repairedFrom !== undefined)) return undefined;
    return recordFromSession(prepare, finished);
  };
}

/** Compiles the sample that just finished and stores it; returns a note for the sample's record. Never throws. */
async function recordFromSession(prepare: PrepareSession, input: FinishedSample): Promise<string | undefined> {
  const { task, sample, recorder } = input;
  const mode: SaveMode = input.repairedFrom !== undefined ? { kind: 'repair', baseRevision: input.repairedFrom } : { kind: 'record' };
  if (mode.kind === 'record' && recipeStore().lookup(task).hit) return undefined;
  const browser = input.context.browser();
  if (!browser) return 'recipe not recorded: no browser to replay it in';
  const current: SourceRun = {
    runId: input.runId,
    sampleId: sample.sample_id,
    row: sample.row,
    log: [...recorder.log],
    extracted: { ...recorder.fields },
  };
  let source = current;
  let others: SourceRun[] = [];
  try {
    if (mode.kind === 'record') {
      // One sample alone over-generalises (every reviewer approved, so "approvers" became "reviewers"): compile over several.
      const needed = settings.recordSamples;
      const earlier = earlierModelSamples(recorder.store.dir, task.spec.task_id, sample.sample_id);
      if (earlier.length + 1 < needed)
        return `recipe not recorded yet: ${earlier.length + 1} of ${needed} model-decided samples done (AGENT_RECORD_SAMPLES)`;
      ({ source, others } = chooseSources([
        { result: { sample_id: sample.sample_id, status: 'done', decider: 'model', extracted: current.extracted }, source: current },
        ...earlier,
      ]));
    }
    const from = await compileFromSamples({ prepare, task, source, others, browser, runId: input.runId });
    ({ source, others } = from);
    const saved = await saveCompiled(task, from.compiled, source, mode);
    if (!saved.entry) return saved.skipped ? `recipe not rewritten: ${saved.skipped}` : undefined;
    const what =
      mode.kind === 'repair'
        ? mode.baseRevision === OWN_RECIPE_REVISION
          ? "the spec's own recipe repaired and compiled (it replays before the spec's own until the spec changes)"
          : 'recipe repaired and rewritten'
        : others.length
          ? `recipe compiled from ${source.sampleId}, checked on ${others.map(o => o.sampleId).join(', ')}`
          : 'recipe compiled from this sample';
    return `${what}: ${saved.location} (revision ${saved.entry.revision}, ${saved.entry.steps.length} steps)`;
  } catch (error) {
    return `recipe not recorded: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Done, model-decided samples of this task already in the run's folder (beside the one being recorded). */
function earlierModelSamples(sampleDir: string, taskId: string, except: string): RunSample[] {
  const runFolder = path.dirname(path.dirname(sampleDir));
  try {
    return readRunSamples(runFolder, taskId).filter(s => s.result.sample_id !== except && s.result.status === 'done' && s.result.decider === 'model');
  } catch {
    return [];
  }
}
