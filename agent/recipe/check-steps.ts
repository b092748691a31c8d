import * as fs from 'node:fs';
import { getAction } from '../actions/registry';
import { STEP_KEYS } from '../decide/recipe-decider';
import { BwaInputError, formatIssuePath } from '../task/input-errors';
import { jsonPathLines } from '../task/json-lines';
import { isDocumentFactTarget } from '../task/locator-schema';
import type { LoadedTask } from '../task/load-task';
import type { RecipeStep } from '../task/schema';

/** One thing wrong with a step: where in the spec (a JSON path) and what. */
interface StepProblem {
  path: PropertyKey[];
  text: string;
}

/**
 * Each recipe step's arguments checked against its action's own schema when the task loads (every run and
 * `bwa validate`), unknown keys included: a typo stops the run before anything starts, naming file, line, step and key.
 */
export function checkRecipeSteps(task: LoadedTask): void {
  const problems = recipeStepProblems(task.spec.recipe ?? []);
  if (!problems.length) return;
  const lineOf = jsonPathLines(fs.readFileSync(task.file, 'utf8').replace(/^\uFEFF/, ''));
  const lines = problems.map(({ path, text }) => {
    const line = lineOf(['recipe', ...path]);
    return `  • ${formatIssuePath(['recipe', ...path])}: ${text}${line ? ` (line ${line})` : ''}`;
  });
  throw new BwaInputError('BWA_RECIPE_STEP', `${task.file}: invalid recipe\n${lines.join('\n')}`);
}

/** What is wrong with each step, by its path under the recipe: `[3].feild: unknown key for extract (its arguments: …)`. */
export function recipeStepProblems(steps: readonly RecipeStep[]): StepProblem[] {
  return steps.flatMap((step, index) => {
    // The task schema already refused an unknown action name (naming the file, step and every action there is).
    const action = getAction(step.action)!;
    const args = Object.fromEntries(Object.entries(step).filter(([key]) => !STEP_KEYS.has(key)));
    const parsed = action.schema.strict().safeParse(args);
    if (parsed.success) return [];
    const expected = Object.keys(action.schema.shape).join(', ') || 'no arguments';
    return parsed.error.issues.map(issue => {
      if (issue.code === 'unrecognized_keys')
        return {
          path: [index, ...(issue.keys.length === 1 ? [issue.keys[0]!] : [])],
          text: `unknown key(s) ${issue.keys.map(k => JSON.stringify(k)).join(', ')} for ${step.action} (its arguments: ${expected})`,
        };
      if (issue.path[0] === 'target' && isDocumentFactTarget(step.target))
        return {
          path: [index, 'target'],
          text: `a fact the page says about itself ({"document", "key"}) is read only by extract, not ${step.action}`,
        };
      return { path: [index, ...issue.path], text: `${issue.message} (${step.action} takes: ${expected})` };
    });
  });
}
