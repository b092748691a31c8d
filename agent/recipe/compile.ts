import type { Browser } from '@playwright/test';
import { RecipeDecider } from '../decide/recipe-decider';
import type { Result } from '../evidence/result-schema';
import { BwaInputError } from '../task/input-errors';
import type { LoadedTask } from '../task/load-task';
import type { RecipeStep, TaskSpec } from '../task/schema';
import { BindingDecider, withAlternative, type BoundRecipe } from './bind';
import { draftRecipe, type Draft, type SourceRun } from './draft';
import type { FieldBinding } from './entry';
import { sameValue } from './patterns';
import type { PruneLevel } from './prune-log';
import { replaySample, sampleOfSource, type PrepareSession, type ReplayEnv } from './replay';

export interface CompileInput {
  prepare: PrepareSession;
  task: LoadedTask;
  source: SourceRun;
  browser: Browser;
  runId: string;
  /** Other done samples of the task: the recipe is replayed on them too, and a step that misreads one of them switches to another locator that worked on the source. */
  others?: readonly SourceRun[];
}

export interface Compiled {
  startUrl?: string;
  steps: RecipeStep[];
  fields: Record<string, FieldBinding>;
  notes: string[];
  verifiedOn: Array<{ sample_id: string; fields: number }>;
}

const LEVELS: PruneLevel[] = ['aggressive', 'conservative'];
const MAX_TUNING_ROUNDS = 8;

/**
 * Action log → recipe: prune to the actions that moved the sample forward, bind each element to a locator
 * (and each read to a pattern) that does not name the sample's own values by replaying it on the source page,
 * then replay the result through the ordinary recipe decider; it is returned only if it reproduces the source
 * sample's values.
 */
export async function compileRecipe(input: CompileInput): Promise<Compiled> {
  const env: ReplayEnv = { browser: input.browser, prepare: input.prepare, task: input.task, runId: input.runId };
  const spec = input.task.spec;
  const problems: string[] = [];
  for (const level of LEVELS) {
    const draft = draftRecipe(spec, input.source, level);
    let binder: BindingDecider | undefined;
    await replaySample(
      env,
      sampleOfSource(input.source),
      activePage => (binder = new BindingDecider(spec, draft, input.source.row, activePage, input.others?.length ? undefined : 1)),
    );
    if (!binder || binder.failed || !binder.bound.steps.some(s => s.action === 'done')) {
      problems.push(`${level} pruning: ${binder?.failed ?? 'the binding replay did not reach done'}`);
      continue;
    }
    const bound = binder.bound;
    const own = await verify(env, bound.steps, input.source, bound.fields);
    if (own.problem) {
      problems.push(`${level} pruning: replayed on ${input.source.sampleId}, ${own.problem}`);
      continue;
    }
    const constants = statedConstants(spec, draft.stated, bound.fields, input.others ?? []);
    if (Object.keys(constants).length) withConstants(bound, constants);
    const tuned = await tuneOnOthers(env, bound, input.others ?? []);
    const droppedNote = draft.dropped.length ? [`left out of the recipe: ${draft.dropped.join('; ')}`] : [];
    return {
      startUrl: draft.startUrl,
      steps: tuned.steps,
      fields: bound.fields,
      notes: [...bound.notes, ...tuned.notes, ...droppedNote],
      verifiedOn: [{ sample_id: input.source.sampleId, fields: own.reproduced }, ...tuned.verifiedOn],
    };
  }
  throw new BwaInputError(
    'BWA_RECIPE_COMPILE',
    `could not compile a recipe from ${input.source.runId}/${input.source.sampleId}:\n${problems.map(p => `  • ${p}`).join('\n')}`,
  );
}

interface Verification {
  problem?: string;
  /** Index of the step to blame, when one can be named. */
  step?: number;
  reproduced: number;
}

/** Replays the steps with the plain recipe decider and compares every bound field with the sample's own value. */
async function verify(env: ReplayEnv, steps: RecipeStep[], sample: SourceRun, fields: Record<string, FieldBinding>): Promise<Verification> {
  const { result } = await replaySample(env, sampleOfSource(sample), () => new RecipeDecider(steps));
  // Only the model can judge or state what no page shows: a recipe that stops short of that alone did its part.
  const stepFailed = /recipe step (\d+)/.exec(result.error ?? '');
  if (result.status !== 'done' && (result.status !== 'needs_review' || stepFailed))
    return { problem: `it ended ${result.status}: ${result.error ?? ''}`, step: stepFailed ? Number(stepFailed[1]) - 1 : undefined, reproduced: 0 };
  let reproduced = 0;
  for (const [field, binding] of Object.entries(fields)) {
    if (binding.how === 'unbound') continue;
    const expected = sample.extracted[field]?.value ?? null;
    const got = result.extracted[field]?.value ?? null;
    if (!sameValue(got, expected)) return { problem: `${field} came out ${show(got)} instead of ${show(expected)}`, step: binding.step, reproduced };
    reproduced += 1;
  }
  return { reproduced };
}

async function tuneOnOthers(
  env: ReplayEnv,
  bound: BoundRecipe,
  others: readonly SourceRun[],
): Promise<Pick<Compiled, 'steps' | 'notes' | 'verifiedOn'>> {
  const steps = [...bound.steps];
  const chosen = new Map<number, number>();
  const notes: string[] = [];
  const pending = [...others];
  const verifiedOn: Compiled['verifiedOn'] = [];
  for (let round = 0; round < MAX_TUNING_ROUNDS && pending.length; round++) {
    const sample = pending[0]!;
    const check = await verify(env, steps, sample, bound.fields);
    if (!check.problem) {
      verifiedOn.push({ sample_id: sample.sampleId, fields: check.reproduced });
      pending.shift();
      continue;
    }
    const alternatives = check.step === undefined ? undefined : bound.alternatives.get(check.step);
    const next = (chosen.get(check.step ?? -1) ?? 0) + 1;
    if (check.step === undefined || !alternatives || next >= alternatives.length) {
      notes.push(`not reproduced on ${sample.sampleId}: ${check.problem}`);
      pending.shift();
      continue;
    }
    chosen.set(check.step, next);
    steps[check.step] = withAlternative(steps[check.step]!, alternatives[next]!);
  }
  return { steps, notes, verifiedOn };
}

/**
 * A value the model stated that no page shows, the same on the source and every other sample checked (a download
 * that always succeeds): written into the recipe's done. One sample alone never makes a constant, and a task that
 * asks for a judgment makes none: there a value no page shows is the judgment's answer, to be given per sample.
 */
export function statedConstants(
  spec: TaskSpec,
  stated: Draft['stated'],
  fields: Record<string, FieldBinding>,
  others: readonly SourceRun[],
): Record<string, unknown> {
  if (others.length === 0 || spec.judgment_required) return {};
  const constants: Record<string, unknown> = {};
  for (const { field, value } of stated) {
    if (fields[field]?.how !== 'unbound' || (typeof value !== 'boolean' && typeof value !== 'string' && typeof value !== 'number')) continue;
    if (others.every(o => JSON.stringify(o.extracted[field]?.value) === JSON.stringify(value))) constants[field] = value;
  }
  return constants;
}

function withConstants(bound: BoundRecipe, constants: Record<string, unknown>): void {
  const done = bound.steps.findIndex(s => s.action === 'done');
  const step = bound.steps[done];
  if (!step) return;
  bound.steps[done] = { ...step, extracted: { ...((step.extracted as Record<string, unknown> | undefined) ?? {}), ...constants } };
  for (const field of Object.keys(constants)) bound.fields[field] = { how: 'constant', step: done };
  bound.notes.push(`stated the same on every sample checked, written into done: ${Object.keys(constants).join(', ')}`);
}

const show = (value: unknown) => JSON.stringify(value)?.slice(0, 80) ?? 'nothing';

/** What a finished sample's files say, as a compile source. */
export function sourceFromResult(result: Result, log: SourceRun['log']): SourceRun {
  return { runId: result.run_id, sampleId: result.sample_id, row: result.input, log, extracted: result.extracted };
}
