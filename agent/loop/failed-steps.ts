import type { FailedStep } from '../evidence/result-schema';
import type { SampleOutcome } from './types';

/**
 * A recipe that went on past failed steps did not do all it was asked: a done becomes needs_review naming those
 * steps, and any other ending names them beside its own reason. (The step that stopped a recipe is its reason already.)
 */
export function withFailedSteps(outcome: SampleOutcome, failed: readonly FailedStep[]): SampleOutcome {
  const wentOn = failed.filter(step => !step.stopped_recipe);
  if (!wentOn.length) return outcome;
  const list = wentOn.map(step => `recipe step ${step.step} (${step.described}) failed: ${step.reason}`).join('; ');
  if (outcome.status === 'done') return { status: 'needs_review', error: list };
  return { ...outcome, error: outcome.error ? `${outcome.error}; ${list}` : list };
}
