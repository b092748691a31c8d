import type { ModelClient } from '../decide/model-client';
import { addUsage, emptyUsage, type Usage } from '../evidence/result-schema';
import type { SecretMasker } from '../secrets/masker';
import type { TaskSpec } from '../task/schema';
import { applyJudgment } from './apply';
import { judgeSamples } from './judge-batch';
import type { PendingSample } from './pending';

export interface JudgeRun {
  /** Each sample as judged (its result after the judge's answer was written). */
  judged: PendingSample[];
  /** Model calls made (one per batch, plus one per batch that needed a retry). */
  usage: Usage;
  batches: number;
}

/** Judges the pending samples of one task in batches of `batchSize` (in sample order) and writes each answer back. */
export async function judgePending(input: {
  client: ModelClient;
  task: TaskSpec;
  runId: string;
  pending: readonly PendingSample[];
  batchSize: number;
  masker: SecretMasker;
  signal?: AbortSignal;
}): Promise<JudgeRun> {
  const { client, task, pending, batchSize, masker } = input;
  const ordered = [...pending].sort((a, b) => a.result.sample_id.localeCompare(b.result.sample_id, undefined, { numeric: true }));
  const run: JudgeRun = { judged: [], usage: emptyUsage(), batches: 0 };
  for (let start = 0; start < ordered.length; start += batchSize) {
    const chunk = ordered.slice(start, start + batchSize);
    const verdict = await judgeSamples(
      client,
      task,
      chunk.map(p => p.result),
      input.signal,
    );
    run.batches += 1;
    addUsage(run.usage, verdict.usage);
    const batch = {
      id: `${input.runId}/${task.task_id}/judge-${run.batches}`,
      size: chunk.length,
      model: verdict.model,
      at: new Date().toISOString(),
      usage: verdict.usage,
    };
    for (const { dir, result } of chunk) {
      const outcome = verdict.judgments.get(result.sample_id) ?? {
        problem: verdict.problems.get(result.sample_id) ?? 'the judge gave no judgment for it',
      };
      run.judged.push({ dir, result: applyJudgment(dir, result, outcome, batch, masker) });
    }
  }
  return run;
}
