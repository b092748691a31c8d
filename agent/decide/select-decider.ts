import type { EnvValues } from '../env/read';
import { BwaInputError } from '../task/input-errors';
import type { TaskSpec } from '../task/schema';
import type { RecipeStep } from '../task/schema';
import { RecipeDecider } from './recipe-decider';
import { SelfHealingDecider } from './self-heal';
import type { Decider } from './types';

/** AGENT_DECIDER's values, as its schema declares them. */
export type DeciderMode = EnvValues['AGENT_DECIDER'];

export interface DeciderFactories {
  model?: () => Decider;
  /** Replaces replaying task.recipe with another offline decider (discovery walks a listing this way). */
  recipe?: () => Decider;
}

/** A recipe compiled from an agent run (tasks/recipes/<task_id>.json) that is fresh for this task spec. */
export interface CompiledRecipe {
  steps: readonly RecipeStep[];
  revision: number;
}

/** The revision a self-heal of the spec's own recipe starts from: its rewrite is the compiled recipe's first. */
export const OWN_RECIPE_REVISION = 0;

/** Which recipe replays: a fresh compiled one before the spec's own (it was learned against this very spec). */
export type RecipeSource = 'compiled' | 'own';

/**
 * What decides a task's samples, known before any sample starts (the same on every sample and every retry):
 * - replay: a recipe, never a model call (no key, or AGENT_DECIDER=recipe);
 * - replay-heal: a recipe, the model asked only from a step that fails (AGENT_DECIDER=auto with a key);
 * - model: every step (AGENT_DECIDER=model, or auto with a key and no recipe);
 * - none: nothing can, and why.
 */
export type DeciderPlan =
  { kind: 'replay' | 'replay-heal'; recipe: RecipeSource } | { kind: 'model'; recipeUnused: boolean } | { kind: 'none'; problem: BwaInputError };

export function planDecider(task: TaskSpec, mode: DeciderMode, hasApiKey: boolean, hasCompiled: boolean): DeciderPlan {
  const recipe: RecipeSource | undefined = hasCompiled ? 'compiled' : (task.recipe?.length ?? 0) > 0 ? 'own' : undefined;
  if (mode === 'model') {
    if (hasApiKey) return { kind: 'model', recipeUnused: recipe !== undefined };
    const hint = recipe ? '; or run with AGENT_DECIDER=recipe' : '';
    return {
      kind: 'none',
      problem: new BwaInputError('BWA_NO_API_KEY', `AGENT_DECIDER=model needs ANTHROPIC_API_KEY (in the environment or .env)${hint}`),
    };
  }
  if (recipe) return { kind: mode === 'auto' && hasApiKey ? 'replay-heal' : 'replay', recipe };
  if (mode === 'auto' && hasApiKey) return { kind: 'model', recipeUnused: false };
  const [why, model] =
    mode === 'recipe' && hasApiKey
      ? ['AGENT_DECIDER=recipe never calls the model', 'unset AGENT_DECIDER to let Claude run it']
      : ['no ANTHROPIC_API_KEY is set', 'set ANTHROPIC_API_KEY (in .env) to let Claude run it'];
  return {
    kind: 'none',
    problem: new BwaInputError(
      'BWA_NO_DECIDER',
      `task ${task.task_id} has no recipe and ${why}: ${model}, or add a "recipe" to tasks/${task.task_id}.json (npx bwa recipe compile records one from a model run)`,
    ),
  };
}

/**
 * The decider of one sample, as planDecider says. A recipe — the fresh compiled one, else the spec's own — replays
 * first; with a key (auto) the model repairs a step that fails (self-heal), so a key never makes a working recipe
 * cost a model call. `model` never replays; `recipe` never calls a model.
 */
export function selectDecider(
  task: TaskSpec,
  mode: DeciderMode,
  hasApiKey: boolean,
  factories: DeciderFactories = {},
  compiled?: CompiledRecipe,
): Decider {
  if (factories.recipe) {
    // The offline decider given stands for the recipe (discovery's listing walker): the task's own steps are not its to replay.
    if (mode === 'recipe' || (mode === 'auto' && !hasApiKey)) return factories.recipe();
    const plan = planDecider(task, mode, hasApiKey, false);
    if (plan.kind === 'none') throw plan.problem;
    return modelFrom(factories);
  }
  const plan = planDecider(task, mode, hasApiKey, compiled !== undefined);
  switch (plan.kind) {
    case 'none':
      throw plan.problem;
    case 'model':
      return modelFrom(factories);
    case 'replay':
    case 'replay-heal': {
      const replayed = plan.recipe === 'compiled' ? compiled! : { steps: task.recipe ?? [], revision: OWN_RECIPE_REVISION };
      return plan.kind === 'replay'
        ? new RecipeDecider(replayed.steps)
        : new SelfHealingDecider(replayed.steps, modelFrom(factories), replayed.revision);
    }
  }
}

function modelFrom(factories: DeciderFactories): Decider {
  if (!factories.model) throw new BwaInputError('BWA_NO_MODEL', 'the model decider is not available in this build');
  return factories.model();
}

/** Why no decider can run the task, known before any sample starts: the model asked for without a key, or neither a key nor a recipe. */
export function deciderProblem(task: TaskSpec, mode: DeciderMode, hasApiKey: boolean, hasCompiled: boolean): BwaInputError | undefined {
  const plan = planDecider(task, mode, hasApiKey, hasCompiled);
  return plan.kind === 'none' ? plan.problem : undefined;
}
