import type { ActionCall } from '../actions/core/dispatch';
import type { ActionResult } from '../actions/core/types';
import { actionHas } from '../actions/registry';
import type { FailedStep } from '../evidence/result-schema';
import type { RecipeStep } from '../task/schema';
import { fillTemplatesDeep } from '../task/row-template';
import { describeStep } from './describe-step';
import type { Decider, Decision, DecisionInput } from './types';

/** A recipe step's own keys; the rest are the action's arguments. */
export const STEP_KEYS = new Set(['action', 'optional', 'expect_url']);

/**
 * Replays a recorded list of actions with semantic targets: no model, no API key, the same every time. A step
 * that only reads the page (extract, screenshot) costs itself when it fails, and the recipe goes on; a step the
 * rest depends on (a navigation, a click) stops it.
 */
export class RecipeDecider implements Decider {
  readonly kind = 'recipe';
  readonly needsView = false;
  readonly failedSteps: FailedStep[] = [];
  private index = 0;
  private failure: string | undefined;

  constructor(private readonly recipe: readonly RecipeStep[]) {}

  /** Index of the next recipe step (the remaining steps are a hint for a model taking over). */
  get position(): number {
    return this.index;
  }

  get remaining(): readonly RecipeStep[] {
    return this.recipe.slice(this.index);
  }

  async decide(input: DecisionInput): Promise<Decision> {
    if (this.failure) return { actions: [], stuck: this.failure };
    const step = this.recipe[this.index];
    if (!step) return { actions: [{ name: 'done', args: { extracted: {} } }] };
    return { actions: [recipeStepCall(step, input.sample.row, `recipe[${this.index}]`)] };
  }

  observe(call: ActionCall, result: ActionResult, pageUrl: string): void {
    const step = this.recipe[this.index];
    const number = this.index + 1;
    this.index += 1;
    if (!step) return;
    if (!result.success && !step.optional) {
      const reason = result.error ?? result.description;
      const stops = !actionHas(call.name, 'independent');
      this.failedSteps.push({
        step: number,
        action: call.name,
        described: describeStep(step, true),
        ...(call.name === 'extract' && typeof step.field === 'string' ? { field: step.field } : {}),
        reason,
        stopped_recipe: stops,
      });
      if (stops) this.failure = `recipe step ${number} (${describeStep(step, true)}) failed: ${reason}`;
      return;
    }
    if (result.success && step.expect_url && !new RegExp(step.expect_url).test(pageUrl))
      this.failure = `recipe step ${number} (${call.name}): page URL ${pageUrl} does not match /${step.expect_url}/`;
  }
}

/** A recipe step as the action call it replays: the step's own keys dropped, `{{column}}` templates filled from the row. */
export function recipeStepCall(step: RecipeStep, row: Readonly<Record<string, string>>, where: string): ActionCall {
  const args = Object.fromEntries(Object.entries(step).filter(([key]) => !STEP_KEYS.has(key)));
  return { name: step.action, args: fillTemplatesDeep(args, row, where) };
}
