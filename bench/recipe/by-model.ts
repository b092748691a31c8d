import type { Result } from '../../agent/evidence/result-schema';
import { FAST_MODEL_PURPOSES, MODEL_PURPOSES, type ModelPurpose, type PurposeUsage, type Usage } from '../../agent/evidence/usage';
import { sum } from '../lib/stats';

/**
 * Which model a price list bills each kind of call at: step summaries (agent/decide/summaries.ts) and run-memory
 * tips (agent/memory/distill.ts) go to AGENT_FAST_MODEL; decisions (with the screenshots they carry), judgments and plans to AGENT_MODEL.
 */
const FAST = FAST_MODEL_PURPOSES;
export const MODEL_CLASSES = { main: MODEL_PURPOSES.filter(p => !FAST.includes(p)), fast: FAST } as const;
export type ModelClass = keyof typeof MODEL_CLASSES;

const KEYS = ['calls', 'input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'output_tokens'] as const;

function classUsage(usage: Usage, purposes: readonly ModelPurpose[]): PurposeUsage {
  const total: PurposeUsage = { calls: 0, input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 };
  for (const purpose of purposes) for (const key of KEYS) total[key] += usage.by_purpose?.[purpose]?.[key] ?? 0;
  return total;
}

/**
 * Per sample, for one model class: calls, uncached input, cache write, cache read, output — the figures a price list
 * bills differently — with `shared` (the batch judge's calls, which judge these samples) spread over them.
 */
export function perSampleByClass(results: readonly Result[], shared: Usage, modelClass: ModelClass): number[] {
  const purposes = MODEL_CLASSES[modelClass];
  const of = (usage: Usage) => classUsage(usage, purposes);
  return KEYS.map(key => (sum(results.map(r => of(r.usage)[key])) + of(shared)[key]) / Math.max(1, results.length));
}

export const BY_CLASS_HEADER = ['model', 'calls', 'uncached input', 'cache write', 'cache read', 'output'];
export const CLASS_LABEL: Record<ModelClass, string> = {
  main: `AGENT_MODEL (${MODEL_CLASSES.main.join(', ')})`,
  fast: `AGENT_FAST_MODEL (${FAST.join(', ')})`,
};
