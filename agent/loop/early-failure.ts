import { archivePreviousAttempt } from '../evidence/attempts';
import type { SecretMasker } from '../secrets/masker';
import type { Result } from '../evidence/result-schema';
import { EvidenceStore } from '../evidence/store';
import type { LoadedTask } from '../task/load-task';
import type { Sample } from '../task/samples';
import { SampleRecorder } from './recorder';

export interface EarlyFailure {
  task: LoadedTask;
  sample: Sample;
  runId: string;
  attempt: number;
  dir: string;
  masker: SecretMasker;
}

/**
 * A sample that failed before its loop could start (no key, no recipe, sign-in failed, its site is down) still
 * gets a result.json with status failed and the reason: the run's evidence lists every selected sample.
 */
export function recordEarlyFailure(at: EarlyFailure, reason: string): { recorder: SampleRecorder; result: Result } {
  archivePreviousAttempt(at.dir);
  const recorder = new SampleRecorder({
    task: at.task,
    sample: at.sample,
    runId: at.runId,
    attempt: at.attempt,
    decider: 'none',
    store: new EvidenceStore(at.dir, at.masker),
  });
  recorder.notes.push('failed before the agent loop started');
  return { recorder, result: recorder.finish('failed', reason) };
}
