import { z } from 'zod';

/** What a model call was for: each has its own line in result.json's usage and in the run summary. */
export const MODEL_PURPOSES = ['decide', 'vision', 'summary', 'memory', 'judge', 'plan'] as const;
export type ModelPurpose = (typeof MODEL_PURPOSES)[number];

const count = () => z.number().int().nonnegative();

/** One kind of call: input split as the API reports it (uncached, written to the cache, read from it). */
export const PurposeUsage = z.object({
  calls: count(),
  input_tokens: count(),
  cache_creation_input_tokens: count(),
  cache_read_input_tokens: count(),
  output_tokens: count(),
});
export type PurposeUsage = z.infer<typeof PurposeUsage>;

export const Usage = z.object({
  model_calls: count(),
  /** Uncached input: what came after the last cache breakpoint, or all of it on a miss (the API's input_tokens). */
  input_tokens: count(),
  output_tokens: count(),
  cache_read_input_tokens: count(),
  cache_creation_input_tokens: count(),
  /** The same figures per kind of call. Results written before it existed have none. */
  by_purpose: z
    .object(Object.fromEntries(MODEL_PURPOSES.map(p => [p, PurposeUsage.optional()])) as Record<ModelPurpose, z.ZodOptional<typeof PurposeUsage>>)
    .optional(),
});
export type Usage = z.infer<typeof Usage>;

export const emptyUsage = (): Usage => ({
  model_calls: 0,
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
});

const TOKEN_KEYS = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens', 'output_tokens'] as const;

/** One API answer's usage, filed under what the call was for. */
export function callUsage(purpose: ModelPurpose, tokens: Pick<PurposeUsage, (typeof TOKEN_KEYS)[number]>): Usage {
  const one: PurposeUsage = { calls: 1, ...Object.fromEntries(TOKEN_KEYS.map(key => [key, tokens[key] ?? 0])) } as PurposeUsage;
  return { model_calls: 1, ...Object.fromEntries(TOKEN_KEYS.map(key => [key, one[key]])), by_purpose: { [purpose]: one } } as Usage;
}

/** Adds one call's (or batch's) usage into a running total, purpose by purpose. */
export function addUsage(total: Usage, more: Usage): void {
  total.model_calls += more.model_calls;
  for (const key of TOKEN_KEYS) total[key] += more[key];
  for (const [purpose, part] of Object.entries(more.by_purpose ?? {}) as Array<[ModelPurpose, PurposeUsage | undefined]>) {
    if (!part) continue;
    total.by_purpose ??= {};
    const into = (total.by_purpose[purpose] ??= {
      calls: 0,
      input_tokens: 0,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: 0,
    });
    into.calls += part.calls;
    for (const key of TOKEN_KEYS) into[key] += part[key];
  }
}

/** Every token a usage counts: input, cache reads and writes, output. */
export const usageTokens = (u: Usage): number => u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens;

/** All input, cached or not. */
export const inputTokens = (u: Pick<Usage, 'input_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'>): number =>
  u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;

/**
 * "42 model calls (decide 38, vision 2, summary 2); input 120,400 tokens (uncached 20,100 · cache write 9,800 ·
 * cache read 90,500); output 4,000": the run summary's line.
 */
export function describeUsage(u: Usage): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const purposes = MODEL_PURPOSES.flatMap(p => (u.by_purpose?.[p]?.calls ? [`${p} ${u.by_purpose[p]!.calls}`] : []));
  return `${n(u.model_calls)} model call${u.model_calls === 1 ? '' : 's'}${purposes.length ? ` (${purposes.join(', ')})` : ''}; input ${n(inputTokens(u))} tokens (uncached ${n(u.input_tokens)} · cache write ${n(u.cache_creation_input_tokens)} · cache read ${n(u.cache_read_input_tokens)}); output ${n(u.output_tokens)}`;
}
