import type { SampleOutcome } from './types';

/** A sample whose reads disagree is not done: a person decides (as with the failed steps of a recipe that went on). */
export function withDisagreements(outcome: SampleOutcome, notes: readonly string[]): SampleOutcome {
  if (!notes.length) return outcome;
  const list = notes.join('; ');
  if (outcome.status === 'done') return { status: 'needs_review', error: list };
  if (outcome.status === 'failed') return outcome;
  return { ...outcome, error: outcome.error ? `${outcome.error}; ${list}` : list };
}
