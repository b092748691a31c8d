import type { ActionCall } from '../actions/core/dispatch';
import type { ActionResult } from '../actions/core/types';
import { actionHas } from '../actions/registry';
import { UNCHANGED } from '../decide/run-state';

export const STAGNATION_LEVELS = { nudge: 3, demand: 5, finish: 8 } as const;
const LOOP_REPEATS = 3;
const SPAM_REPEATS = 4;
const FAILURES_BEFORE_ELEMENT_LIST = 3;
export const PAGINATION_BONUS_STEPS = 3;

export interface StepObservation {
  url: string;
  /** The signature of the page state the action was decided on; undefined without a look (a recipe, the rest of a batch). */
  page?: string;
  call: ActionCall;
  result: ActionResult;
  /** The action produced new data (a successful extract, or save_progress that changed the accumulated data). */
  newData: boolean;
  /** The target as the page state showed it (`button "Prev"`), for the notices. */
  targetLabel?: string;
  /** The target is one of the page's pagination controls (found by the page's structure, not by its words). */
  paginates?: boolean;
}

/**
 * Watches the run for the ways long tasks go wrong — repeating an action on a page it does not change, stagnating
 * on one page, spamming, failing in a row, running out of budget — and turns each into a notice (once), a
 * checkpoint, or a restriction. Progress is what the page shows: an action repeated on a page that changes each
 * time (a month label, a count) is progress, and only the step budget ends such a task. So is an action whose
 * result saw the page change in what the page state's words need not show (its target's class, a canvas drawn on:
 * `shownChange`), though the page state reads the same.
 */
export class RecoveryMonitor {
  private stagnantSteps = 0;
  private lastPage: string | undefined;
  private readonly actionCounts = new Map<string, number>();
  private readonly typeCounts = new Map<string, number>();
  private readonly firedBudget = new Set<number>();
  private readonly firedLevels = new Set<number>();
  consecutiveFailures = 0;
  consecutiveInfraErrors = 0;
  bonusSteps = 0;
  /** Only done and fail are offered from now on. */
  forceFinish = false;
  /** A level-2 stagnation asks the loop to write a checkpoint. */
  checkpointRequested = false;

  constructor(private readonly maxSteps: number) {}

  get effectiveMaxSteps(): number {
    return this.maxSteps + this.bonusSteps;
  }

  /** Records one executed action and returns the notices it causes for the next turn. */
  after(observation: StepObservation): string[] {
    const notices: string[] = [];
    const { result } = observation;
    this.consecutiveFailures = result.success ? 0 : this.consecutiveFailures + 1;
    this.consecutiveInfraErrors = result.success ? 0 : result.infra ? this.consecutiveInfraErrors + 1 : 0;
    // Repeats count since the last new data: clicking the fifth item of a list after saving four is progress, not spam.
    if (observation.newData) {
      this.actionCounts.clear();
      this.typeCounts.clear();
    }
    const shown = result.success && result.shownChange !== undefined;
    if (observation.page !== undefined && !shown) notices.push(...this.repeats(observation));
    if (result.success && observation.paginates) {
      this.bonusSteps += PAGINATION_BONUS_STEPS;
      notices.push(`Pagination detected: +${PAGINATION_BONUS_STEPS} steps (budget now ${this.effectiveMaxSteps}).`);
    }
    notices.push(...this.stagnation(observation, shown));
    return notices;
  }

  /**
   * The same action taken again on the very page state it was taken on before: the earlier ones left the page as
   * it was (or brought it back). A page that changes in between — a month label, a count — is never a repeat.
   */
  private repeats(observation: StepObservation): string[] {
    const { call, page } = observation;
    const what = `${call.name}${observation.targetLabel ? ` ${observation.targetLabel}` : ''}`;
    const notices: string[] = [];
    const key = `${page}\u0000${call.name}\u0000${JSON.stringify(call.args)}`;
    const repeats = (this.actionCounts.get(key) ?? 0) + 1;
    this.actionCounts.set(key, repeats);
    if (repeats === LOOP_REPEATS)
      notices.push(
        `You have taken the same action (${what}) ${repeats} times on this page and it stayed exactly as it was (${UNCHANGED}): it changes nothing here. Try a different approach, or call done or fail.`,
      );

    // Spam is the same action again and again: typing into four different fields of one form is filling it in.
    const typeKey = `${page}\u0000${call.name}\u0000${JSON.stringify(call.args.target ?? null)}`;
    const sameType = observation.newData ? 0 : (this.typeCounts.get(typeKey) ?? 0) + 1;
    this.typeCounts.set(typeKey, sameType);
    if (sameType >= SPAM_REPEATS && !actionHas(call.name, 'collects') && !this.forceFinish) {
      this.forceFinish = true;
      notices.push(
        `STOP: ${sameType} ${call.name} actions on this page left it exactly as it was (${UNCHANGED}) and brought no new data. Only done and fail are available now — finish with what you have.`,
      );
    }
    return notices;
  }

  /** Counted once per look: only the first action of a turn carries the page it was decided on; any action that changed what the page shows resets it. */
  private stagnation(observation: StepObservation, shown: boolean): string[] {
    if (observation.page === undefined && !shown) return [];
    const moved = observation.page !== undefined && observation.page !== this.lastPage;
    if (observation.page !== undefined) this.lastPage = observation.page;
    if (observation.newData || moved || shown) {
      this.stagnantSteps = 0;
      this.firedLevels.clear();
      return [];
    }
    this.stagnantSteps += 1;
    const level =
      this.stagnantSteps >= STAGNATION_LEVELS.finish
        ? 3
        : this.stagnantSteps >= STAGNATION_LEVELS.demand
          ? 2
          : this.stagnantSteps >= STAGNATION_LEVELS.nudge
            ? 1
            : 0;
    if (level === 0 || this.firedLevels.has(level)) return [];
    this.firedLevels.add(level);
    if (level === 1)
      return [
        `The page has not changed for ${this.stagnantSteps} steps (${UNCHANGED}) and no new data came in. Try a different approach: scroll, open another element, or extract what is visible.`,
      ];
    if (level === 2) {
      this.checkpointRequested = true;
      return [`CHANGE YOUR STRATEGY NOW: ${this.stagnantSteps} steps on the same page state without new data. Your progress has been checkpointed.`];
    }
    this.forceFinish = true;
    return [`${this.stagnantSteps} steps without progress: you MUST call done (with what you have) or fail now. No more browsing.`];
  }

  /** Budget warnings at 75% and 90% of the step budget, each once. */
  budgetNotices(step: number): string[] {
    const max = this.effectiveMaxSteps;
    const notices: string[] = [];
    if (step >= Math.ceil(max * 0.9) && !this.firedBudget.has(90)) {
      this.firedBudget.add(90).add(75);
      notices.push(`URGENT: 90% of the step budget is used (${step} of ${max}). Save any unsaved data with save_progress NOW, then call done.`);
    } else if (step >= Math.ceil(max * 0.75) && !this.firedBudget.has(75)) {
      this.firedBudget.add(75);
      notices.push(`75% of the step budget is used (${step} of ${max}). Start consolidating: save_progress what you have, then finish with done.`);
    }
    return notices;
  }

  get needsElementList(): boolean {
    return this.consecutiveFailures >= FAILURES_BEFORE_ELEMENT_LIST;
  }
}
