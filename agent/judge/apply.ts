import * as path from 'node:path';
import { z } from 'zod';
import { readJsonIfExists, writeJsonAtomic } from '../fs/atomic';
import { ACTION_LOG_IDENTIFIERS, ActionLogEntry, Result } from '../evidence/result-schema';
import type { SecretMasker } from '../secrets/masker';
import { maskResult } from '../evidence/mask-result';
import { ACTION_LOG_FILE, RESULT_FILE } from '../loop/recorder';

/** The batch call that judged a sample, as result.json records it. */
export type JudgeBatch = NonNullable<Result['judgment_batch']>;

export type JudgeOutcome = { judgment: Record<string, unknown>; fields: Record<string, unknown> } | { problem: string };

/**
 * Writes the batch judge's answer into a pending sample: the judgment (status done) or why there is none
 * (needs_review), and one more action-log step saying which batch decided it. Returns the new result.
 */
export function applyJudgment(dir: string, result: Result, outcome: JudgeOutcome, batch: JudgeBatch, masker: SecretMasker): Result {
  const logFile = path.join(dir, ACTION_LOG_FILE);
  const log = z.array(ActionLogEntry).safeParse(readJsonIfExists(logFile));
  const entries = log.success ? log.data : [];
  const judged = 'judgment' in outcome;
  const entry: ActionLogEntry = {
    step: Math.max(result.steps, ...entries.map(e => e.step)) + 1,
    timestamp: batch.at,
    decider: 'judge',
    model: batch.model,
    action: { name: 'judge', args: { batch: batch.id, samples_in_batch: batch.size } },
    outcome: judged
      ? {
          success: true,
          description: `judged with ${batch.size - 1} other sample(s) in batch ${batch.id}: ${JSON.stringify({ judgment: outcome.judgment, fields: outcome.fields })}`,
        }
      : { success: false, description: `batch ${batch.id} gave no usable judgment`, error: outcome.problem },
    duration_ms: 0,
  };
  const { judgment_pending: _pending, ...rest } = result;
  const step = entry.step;
  const decided = judged
    ? Object.fromEntries(
        Object.entries(outcome.fields).map(([field, value]) => [field, { value, provenance: { source: 'model' as const, step, at: batch.at } }]),
      )
    : {};
  const next = maskResult(
    {
      ...rest,
      status: judged ? 'done' : 'needs_review',
      error: judged ? null : `batch judgment: ${outcome.problem}`,
      judgment: judged ? outcome.judgment : null,
      extracted: { ...result.extracted, ...decided },
      judgment_batch: batch,
      notes: [
        ...result.notes,
        judged ? `judgment from batch ${batch.id} (${batch.size} samples, one model call)` : `batch ${batch.id}: ${outcome.problem}`,
      ],
    },
    masker,
  );
  writeJsonAtomic(logFile, masker.value([...entries, entry], ACTION_LOG_IDENTIFIERS));
  writeJsonAtomic(path.join(dir, RESULT_FILE), next);
  return next;
}
