import type { ActionCall } from '../actions/core/dispatch';
import type { ActionResult } from '../actions/core/types';
import type { RecipeStep } from '../task/schema';
import { describeStep } from './describe-step';
import { recipeStepCall } from './recipe-decider';
import type { Consolidation, Decider, Decision, DecisionInput } from './types';

/** After this many repairs in one sample the recipe no longer fits the page: the model keeps the sample. */
const MAX_HANDOFFS = 3;

export interface Repair {
  /** 1-based recipe step that failed. */
  step: number;
  reason: string;
  /** The model did that step's job and the replay went on: the log now holds a replacement for the step. */
  resumed?: boolean;
}

/**
 * Replays a recipe (a compiled one, or the spec's own) with no model call; when a step fails (element gone, value not matching its
 * pattern, page URL not as expected, done refused) the model takes over from that point with the rest of the
 * recipe as a hint, and once it has done that step's job the replay resumes (script → agent → script).
 */
export class SelfHealingDecider implements Decider {
  readonly repairs: Repair[] = [];
  private cursor = 0;
  private emitted: number | undefined;
  private repairing = false;
  private resumeOn: { action: string; field?: unknown } | undefined;
  private hint: string | undefined;
  /** A done the loop may still refuse: only a refusal (the sample goes on) makes it a repair. */
  private doneAt: number | undefined;

  constructor(
    private readonly recipe: readonly RecipeStep[],
    private readonly model: Decider,
    /** The stored recipe's revision (0: the spec's own): a repair written back becomes the next one (unless another sample was first). */
    readonly revision = 0,
  ) {}

  /** The action log names who decided each step: the recipe while replaying, the model while repairing. */
  get kind(): string {
    return this.repairing ? this.model.kind : 'recipe-heal';
  }

  get needsView(): boolean {
    return this.repairing;
  }

  /** A step the model replaced (not just a sample it finished): worth writing back as the next revision. */
  get repairedAStep(): boolean {
    return this.repairs.some(r => r.resumed);
  }

  async decide(input: DecisionInput, signal: AbortSignal): Promise<Decision> {
    if (this.repairing) {
      if (this.doneAt !== undefined) {
        this.record({
          step: this.doneAt + 1,
          reason: `recipe step ${this.doneAt + 1} (done) was refused: ${input.notices.join(' ') || 'required output missing'}`,
        });
        this.doneAt = undefined;
      }
      const notices = this.hint ? [...input.notices, this.hint] : input.notices;
      this.hint = undefined;
      return this.model.decide({ ...input, notices }, signal);
    }
    const step = this.recipe[this.cursor];
    this.emitted = this.cursor;
    if (!step) return { actions: [{ name: 'done', args: { extracted: {} } }] };
    return { actions: [recipeStepCall(step, input.sample.row, `recipe[${this.cursor}]`)] };
  }

  observe(call: ActionCall, result: ActionResult, pageUrl: string): void {
    if (this.repairing) {
      this.model.observe?.(call, result, pageUrl);
      if (
        this.resumeOn &&
        result.success &&
        call.name === this.resumeOn.action &&
        (this.resumeOn.field === undefined || call.args.field === this.resumeOn.field)
      ) {
        this.repairing = false;
        this.resumeOn = undefined;
        const repair = this.repairs[this.repairs.length - 1];
        if (repair) repair.resumed = true;
      }
      return;
    }
    const index = this.emitted ?? this.cursor;
    const step = this.recipe[index];
    this.cursor = index + 1;
    if (!step) return;
    if (call.name === 'done' && result.success) {
      // Accepted, the sample ends here; refused (a required field or the judgment missing), the model finishes it.
      this.prepareHandoff(index, 'the sample could not finish with what the recipe collected', undefined);
      this.doneAt = index;
      return;
    }
    let failure: string | undefined;
    if (!result.success && !step.optional) failure = result.error ?? result.description;
    else if (result.success && step.expect_url && !new RegExp(step.expect_url).test(pageUrl))
      failure = `the page URL ${pageUrl} does not match /${step.expect_url}/`;
    if (!failure) return;
    this.prepareHandoff(index, failure, { action: step.action, field: step.action === 'extract' ? step.field : undefined });
    this.record({ step: index + 1, reason: `recipe step ${index + 1} (${describeStep(step)}) failed: ${failure}` });
  }

  consolidate(input: DecisionInput, reason: string, options: { preferFallback: boolean; signal: AbortSignal }): Promise<Consolidation> {
    if (!this.model.consolidate) throw new Error('the repairing decider cannot consolidate');
    return this.model.consolidate(input, reason, options);
  }

  private prepareHandoff(index: number, reason: string, resumeOn: SelfHealingDecider['resumeOn']): void {
    this.repairing = true;
    this.hint = repairHint(this.recipe, index, reason, resumeOn !== undefined);
    this.resumeOn = resumeOn && this.repairs.length + 1 < MAX_HANDOFFS ? resumeOn : undefined;
  }

  private record(repair: Repair): void {
    this.repairs.push(repair);
  }
}

/** What the model is told when it takes over: which step failed and why, and the rest of the plan. */
export function repairHint(recipe: readonly RecipeStep[], index: number, reason: string, resumes: boolean): string {
  const failed = recipe[index]!;
  const lines = recipe.slice(index).map((step, i) => `  ${index + i + 1}. ${describeStep(step)}${i === 0 ? '   ← failed' : ''}`);
  const resume = resumes
    ? `Do that step's job another way (the page may have changed). As soon as a ${failed.action}${failed.action === 'extract' ? ` of ${String(failed.field)}` : ''} succeeds, the recorded steps resume.`
    : 'Finish the sample yourself.';
  return [
    `The recipe of this task was being replayed; step ${index + 1} of ${recipe.length} (${describeStep(failed)}) did not work: ${reason}. You take over from here.`,
    resume,
    "The recipe from that step on, as a guide ({{column}} = this sample's input):",
    ...lines,
  ].join('\n');
}
