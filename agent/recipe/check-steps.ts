import { getAction } from '../actions/registry';
import { STEP_KEYS } from '../decide/recipe-decider';
import { BwaInputError, formatIssuePath } from '../task/input-errors';
import type { LoadedTask } from '../task/load-task';
import type { RecipeStep } from '../task/schema';

/**
 * Each recipe step's arguments checked against its action's own schema when the task loads (every run and
 * `bwa validate`), unknown keys included: a typo stops the run before anything starts, naming file, step and key.
 */
export function checkRecipeSteps(task: LoadedTask): void {
  const problems = recipeStepProblems(task.spec.recipe ?? [], 'recipe');
  if (problems.length) throw new BwaInputError('BWA_RECIPE_STEP', `${task.file}: invalid recipe\n${problems.map(p => `  • ${p}`).join('\n')}`);
}

/** One line per problem: `recipe[3].feild: unknown key for extract (expected: field, target, …)`. */
export function recipeStepProblems(steps: readonly RecipeStep[], where: string): string[] {
  return steps.flatMap((step, index) => {
    const at = `${where}[${index}]`;
    // The task schema already refused an unknown action name (naming the file, step and every action there is).
    const action = getAction(step.action)!;
    const args = Object.fromEntries(Object.entries(step).filter(([key]) => !STEP_KEYS.has(key)));
    const parsed = action.schema.strict().safeParse(args);
    if (parsed.success) return [];
    const expected = Object.keys(action.schema.shape).join(', ') || 'no arguments';
    return parsed.error.issues.map(issue => {
      const key = formatIssuePath([at, ...issue.path]);
      if (issue.code === 'unrecognized_keys')
        return `${at}: unknown key(s) ${issue.keys.map(k => JSON.stringify(k)).join(', ')} for ${step.action} (its arguments: ${expected})`;
      return `${key}: ${issue.message} (${step.action} takes: ${expected})`;
    });
  });
}
