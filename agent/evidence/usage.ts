import { z } from 'zod';

/**
 * What a model call was for: each has its own line in result.json's usage and in the run summary. `vision` is
 * the separate screenshot question bwa asked before the screenshot rode in the decision request: results written
 * then still carry it.
 */
export const MODEL_PURPOSES = ['decide', 'vision', 'summary', 'memory', 'judge', 'plan'] as const;
export type ModelPurpose = (typeof MODEL_PURPOSES)[number];
/** Calls AGENT_FAST_MODEL answers (step summaries, run-memory tips); AGENT_MODEL answers the rest. */
export const FAST_MODEL_PURPOSES: readonly ModelPurpose[] = ['summary', 'memory'];

const count = () => z.number().int().nonnegative();

/** One kind of call: input split as the API reports it (uncached, written to the cache, read from it). */
export const PurposeUsage = z.object({
  calls: count(),
  input_tokens: count(),
  cache_creation_input_tokens: count(),
  cache_read_input_tokens: count(),
  output_tokens: count(),
  /** Of output_tokens, the model's thinking (the API's output_tokens_details.thinking_tokens); absent before it was kept. */
  thinking_tokens: count().optional(),
  /** Requests that carried a screenshot beside the page state. */
  with_screenshot: count().optional(),
});
export type PurposeUsage = z.infer<typeof PurposeUsage>;

export const Usage = z.object({
  model_calls: count(),
  /** Uncached input: what came after the last cache breakpoint, or all of it on a miss (the API's input_tokens). */
  input_tokens: count(),
  output_tokens: count(),
  cache_read_input_tokens: count(),
  cache_creation_input_tokens: count(),
  /** Of output_tokens, the model's thinking. */
  thinking_tokens: count().optional(),
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
const OPTIONAL_KEYS = ['thinking_tokens', 'with_screenshot'] as const;

export interface CallFacts {
  thinking_tokens?: number;
  /** The request carried a screenshot. */
  screenshot?: boolean;
}

/** One API answer's usage, filed under what the call was for. */
export function callUsage(purpose: ModelPurpose, tokens: Pick<PurposeUsage, (typeof TOKEN_KEYS)[number]>, facts: CallFacts = {}): Usage {
  const one: PurposeUsage = { calls: 1, ...Object.fromEntries(TOKEN_KEYS.map(key => [key, tokens[key] ?? 0])) } as PurposeUsage;
  if (facts.thinking_tokens) one.thinking_tokens = facts.thinking_tokens;
  if (facts.screenshot) one.with_screenshot = 1;
  return {
    model_calls: 1,
    ...Object.fromEntries(TOKEN_KEYS.map(key => [key, one[key]])),
    ...(one.thinking_tokens ? { thinking_tokens: one.thinking_tokens } : {}),
    by_purpose: { [purpose]: one },
  } as Usage;
}

/** Adds one call's (or batch's) usage into a running total, purpose by purpose. */
export function addUsage(total: Usage, more: Usage): void {
  total.model_calls += more.model_calls;
  for (const key of TOKEN_KEYS) total[key] += more[key];
  if (more.thinking_tokens) total.thinking_tokens = (total.thinking_tokens ?? 0) + more.thinking_tokens;
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
    for (const key of OPTIONAL_KEYS) if (part[key]) into[key] = (into[key] ?? 0) + part[key];
  }
}

/** Every token a usage counts: input, cache reads and writes, output. */
export const usageTokens = (u: Usage): number => u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens;

/** All input, cached or not. */
export const inputTokens = (u: Pick<Usage, 'input_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'>): number =>
  u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;

/**
 * "42 model calls (decide 38 (3 with a screenshot), summary 2, memory 2); input 120,400 tokens (uncached 20,100 ·
 * cache write 9,800 · cache read 90,500); output 4,000 (thinking 2,900)": the run summary's line.
 */
export function describeUsage(u: Usage): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const purposes = MODEL_PURPOSES.flatMap(p => {
    const part = u.by_purpose?.[p];
    if (!part?.calls) return [];
    return [`${p} ${part.calls}${part.with_screenshot ? ` (${part.with_screenshot} with a screenshot)` : ''}`];
  });
  const thinking = u.thinking_tokens ? ` (thinking ${n(u.thinking_tokens)})` : '';
  return `${n(u.model_calls)} model call${u.model_calls === 1 ? '' : 's'}${purposes.length ? ` (${purposes.join(', ')})` : ''}; input ${n(inputTokens(u))} tokens (uncached ${n(u.input_tokens)} · cache write ${n(u.cache_creation_input_tokens)} · cache read ${n(u.cache_read_input_tokens)}); output ${n(u.output_tokens)}${thinking}`;
}
