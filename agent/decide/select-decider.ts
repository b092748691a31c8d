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

/**
 * auto: a compiled recipe replays first, the model repairing a step that fails (self-heal); else the model when
 * a key is set, else the recipe (compiled, then the spec's own). recipe never calls a model; model never replays.
 * A task with neither fails fast, saying how to fix it.
 */
export function selectDecider(
  task: TaskSpec,
  mode: DeciderMode,
  hasApiKey: boolean,
  factories: DeciderFactories = {},
  compiled?: CompiledRecipe,
): Decider {
  if (mode === 'auto' && hasApiKey && compiled && factories.model && !factories.recipe)
    return new SelfHealingDecider(compiled.steps, factories.model(), compiled.revision);
  const useModel = mode === 'model' || (mode === 'auto' && hasApiKey);
  if (!useModel && factories.recipe) return factories.recipe();
  const problem = deciderProblem(task, mode, hasApiKey, compiled !== undefined);
  if (problem) throw problem;
  if (!useModel) return new RecipeDecider(compiled?.steps ?? task.recipe ?? []);
  if (!factories.model) throw new BwaInputError('BWA_NO_MODEL', 'the model decider is not available in this build');
  return factories.model();
}

/**
 * Why no decider can run the task, known before any sample starts (the same on every sample and every retry):
 * the model asked for without a key, or neither a key nor a recipe.
 */
export function deciderProblem(task: TaskSpec, mode: DeciderMode, hasApiKey: boolean, hasCompiled: boolean): BwaInputError | undefined {
  const hasRecipe = (task.recipe?.length ?? 0) > 0 || hasCompiled;
  const useModel = mode === 'model' || (mode === 'auto' && hasApiKey);
  if (useModel && !hasApiKey)
    return new BwaInputError(
      'BWA_NO_API_KEY',
      `AGENT_DECIDER=model needs ANTHROPIC_API_KEY (in the environment or .env)${hasRecipe ? '; or run with AGENT_DECIDER=recipe' : ''}`,
    );
  if (!useModel && !hasRecipe)
    return new BwaInputError(
      'BWA_NO_DECIDER',
      `task ${task.task_id} has no recipe and no ANTHROPIC_API_KEY is set: set ANTHROPIC_API_KEY (in .env) to let Claude run it, or add a "recipe" to tasks/${task.task_id}.json (npx bwa recipe compile records one from a model run)`,
    );
  return undefined;
}
