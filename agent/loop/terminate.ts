import type { Decider, DecisionInput } from '../decide/types';
import type { SampleOutcome } from './types';
import type { SampleRecorder } from './recorder';

export type TerminationReason = 'max_steps' | 'max_time' | 'network' | 'model_failure' | 'model_rejected' | 'model_answer' | 'aborted';

const DESCRIPTIONS: Record<TerminationReason, string> = {
  max_steps: 'the step budget was used up',
  max_time: 'the time budget (max_time_seconds) ran out',
  network: 'too many consecutive network/browser errors',
  model_failure: 'the model could not be reached',
  // The API answered: it refused the request, and the message says which setting to change.
  model_rejected: 'the API rejected the request',
  model_answer: 'the model gave no usable answer after a corrective turn',
  aborted: 'the run was stopped',
};

/**
 * Ends a sample that did not finish by itself. With data collected, one final consolidation call (when the
 * decider can) turns it into a best-effort result: partial_success. Without data: failed.
 */
export async function terminate(
  reason: TerminationReason,
  detail: string,
  ctx: { decider: Decider; recorder: SampleRecorder; input: () => DecisionInput; primaryFailed: boolean },
): Promise<SampleOutcome> {
  const { recorder, decider } = ctx;
  const error = `${DESCRIPTIONS[reason]}: ${detail}`;
  recorder.notes.push(`stopped: ${error}`);
  if (Object.keys(recorder.fieldValues()).length === 0) return { status: 'failed', error };
  if (decider.consolidate && reason !== 'aborted') {
    try {
      const signal = AbortSignal.timeout(60_000);
      const consolidated = await decider.consolidate(ctx.input(), error, { preferFallback: ctx.primaryFailed, signal });
      recorder.addUsage(consolidated.usage);
      const at = new Date().toISOString();
      for (const [field, value] of Object.entries(consolidated.extracted))
        if (value !== null && value !== undefined && !(field in recorder.fields)) recorder.setField(field, value, { source: 'model', at });
      if (consolidated.judgment) recorder.judgment = consolidated.judgment;
      recorder.notes.push(`final consolidation by ${consolidated.model}`);
    } catch (consolidationError) {
      recorder.notes.push(
        `final consolidation failed: ${consolidationError instanceof Error ? consolidationError.message : String(consolidationError)}`,
      );
    }
  }
  return { status: 'partial_success', error };
}
