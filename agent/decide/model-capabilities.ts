import type Anthropic from '@anthropic-ai/sdk';

/**
 * Every per-model fact bwa relies on, in one table: limits, list prices (with the day they were recorded and the
 * docs page they came from), and what the Messages API accepts from each model. Request shaping
 * (request-shape.ts), cost estimates (model-cost.ts), the context-window default (model-settings.ts), `bwa check`
 * and bench/scale all read it; nothing else in the code assumes one model.
 *
 * Transcribed from the Claude docs as of 2026-11-26 (models overview, each model's overview and migration guide,
 * pricing, thinking, thinking-troubleshooting, effort, prompt-caching). fixtures/model-server keeps its own
 * transcription of the same pages (model-rules.ts), so a wrong entry here fails a test there.
 */

/** output_config.effort, as the SDK types it. */
export type Effort = NonNullable<Anthropic.OutputConfig['effort']>;
export const EFFORT_LEVELS = ['low', 'medium', 'high', 'xhigh', 'max'] as const satisfies readonly Effort[];
export type ThinkingType = Anthropic.ThinkingConfigParam['type'];

/** USD per million tokens on the standard (interactive) API. Cache writes are the 5-minute kind bwa uses. */
export interface PriceSheet {
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
}

export interface ModelPrices {
  standard: PriceSheet;
  /** A request whose prompt (input + cache writes + cache reads) is over `above` tokens pays these for every token of it, output included. */
  longPrompt?: { above: number; prices: PriceSheet };
  recordedOn: string;
  source: string;
}

export interface ModelCapabilities {
  id: string;
  /** Other ids the API accepts for the same model (a dated snapshot of an alias). */
  aliases?: readonly string[];
  name: string;
  status: 'current' | 'legacy';
  released: string;
  contextWindow: number;
  maxOutput: number;
  /** Undefined for a model bwa does not know: no cost can be estimated. */
  prices?: ModelPrices;
  /** tool_choice "any" or "tool": rejected with a 400 on the current Sonnet, Opus and Fable. */
  forcedToolChoice: boolean;
  thinking: {
    /** What the model does when a request sends no `thinking` (bwa never sends one). */
    whenOmitted: 'adaptive' | 'off';
    accepts: readonly ThinkingType[];
    /** A restriction the docs add to `accepts`. */
    note?: string;
  };
  /** Undefined: output_config.effort is not accepted. */
  effort?: { levels: readonly Effort[]; default: Effort };
  /** Non-default temperature / top_p / top_k accepted (bwa sends none either way). */
  samplingParameters: boolean;
  /** A last assistant turn (prefill) accepted (bwa never sends one). */
  prefill: boolean;
  /** Prompts shorter than this are processed without caching, with no error. */
  minCacheablePrompt: number;
  docs: string;
}

const RECORDED = '2026-11-26';
const ALL_EFFORTS = EFFORT_LEVELS;

export const MODELS: readonly ModelCapabilities[] = [
  {
    id: 'claude-sonnet-5-5',
    name: 'Claude Sonnet 5.5',
    status: 'current',
    released: '2026-09-28',
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    prices: {
      // Cache reads were cut from $0.20 to $0.10 on 2026-10-07 ("half the Claude Sonnet 5 rate").
      standard: { input: 2, cacheWrite: 2.5, cacheRead: 0.1, output: 10 },
      recordedOn: RECORDED,
      source: 'https://platform.claude.com/docs/en/models/sonnet-5-5/migration-guide',
    },
    forcedToolChoice: false,
    thinking: {
      whenOmitted: 'adaptive',
      accepts: ['adaptive', 'between_tools'],
      note: 'between_tools only at effort low, medium or high, with no other thinking field',
    },
    effort: { levels: ALL_EFFORTS, default: 'high' },
    samplingParameters: false,
    prefill: false,
    minCacheablePrompt: 512,
    docs: 'https://platform.claude.com/docs/en/models/sonnet-5-5/whats-new-sonnet-5-5',
  },
  {
    id: 'claude-opus-5-5',
    name: 'Claude Opus 5.5',
    status: 'current',
    released: '2026-09-22',
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    prices: {
      standard: { input: 4, cacheWrite: 5, cacheRead: 0.2, output: 20 },
      recordedOn: RECORDED,
      source: 'https://platform.claude.com/docs/en/models/opus-5-5/overview',
    },
    forcedToolChoice: false,
    thinking: { whenOmitted: 'adaptive', accepts: ['adaptive'], note: 'always on' },
    effort: { levels: ALL_EFFORTS, default: 'medium' },
    samplingParameters: false,
    prefill: false,
    minCacheablePrompt: 512,
    docs: 'https://platform.claude.com/docs/en/models/opus-5-5/whats-new-opus-5-5',
  },
  {
    id: 'claude-haiku-5-5',
    name: 'Claude Haiku 5.5',
    status: 'current',
    released: '2026-10-07',
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    prices: {
      standard: { input: 0.1, cacheWrite: 0.125, cacheRead: 0.01, output: 0.5 },
      longPrompt: { above: 100_000, prices: { input: 0.5, cacheWrite: 0.625, cacheRead: 0.05, output: 2.5 } },
      recordedOn: RECORDED,
      source: 'https://platform.claude.com/docs/en/about-claude/pricing#long-context-pricing',
    },
    // Accepted, but the answer then starts with the tool call and has no thinking block.
    forcedToolChoice: true,
    thinking: { whenOmitted: 'adaptive', accepts: ['adaptive', 'disabled'], note: 'disabled only at effort high or below' },
    effort: { levels: ALL_EFFORTS, default: 'medium' },
    samplingParameters: false,
    prefill: false,
    minCacheablePrompt: 512,
    docs: 'https://platform.claude.com/docs/en/models/haiku-5-5/migration-guide',
  },
  {
    id: 'claude-fable-5-2',
    name: 'Claude Fable 5.2',
    status: 'current',
    released: '2026-11-09',
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    prices: {
      // The overview lists $8 / $40; cache writes at the standard 1.25×, reads at the $0.20 third parties quote.
      standard: { input: 8, cacheWrite: 10, cacheRead: 0.2, output: 40 },
      recordedOn: RECORDED,
      source: 'https://platform.claude.com/docs/en/models/overview',
    },
    // The docs name Fable 5.1 among the models that reject forced tool use; 5.2 is taken to do the same.
    forcedToolChoice: false,
    thinking: { whenOmitted: 'adaptive', accepts: ['adaptive'], note: 'always on' },
    effort: { levels: ALL_EFFORTS, default: 'high' },
    samplingParameters: false,
    prefill: false,
    minCacheablePrompt: 512,
    docs: 'https://platform.claude.com/docs/en/models/overview',
  },
  {
    id: 'claude-fable-5-1',
    name: 'Claude Fable 5.1',
    status: 'legacy',
    released: '2026-09-01',
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    prices: {
      standard: { input: 10, cacheWrite: 12.5, cacheRead: 0.25, output: 50 },
      recordedOn: RECORDED,
      source: 'https://platform.claude.com/docs/en/about-claude/pricing',
    },
    forcedToolChoice: false,
    thinking: { whenOmitted: 'adaptive', accepts: ['adaptive'], note: 'always on' },
    effort: { levels: ALL_EFFORTS, default: 'high' },
    samplingParameters: false,
    prefill: false,
    minCacheablePrompt: 512,
    docs: 'https://platform.claude.com/docs/en/models/fable-5-1/whats-new-fable-5-1',
  },
  {
    id: 'claude-sonnet-5',
    name: 'Claude Sonnet 5',
    status: 'legacy',
    released: '2026-06-30',
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    prices: {
      standard: { input: 2, cacheWrite: 2.5, cacheRead: 0.2, output: 10 },
      recordedOn: RECORDED,
      source: 'https://platform.claude.com/docs/en/models/sonnet-5/overview',
    },
    forcedToolChoice: true,
    thinking: { whenOmitted: 'adaptive', accepts: ['adaptive', 'disabled'] },
    effort: { levels: ALL_EFFORTS, default: 'high' },
    samplingParameters: false,
    prefill: false,
    minCacheablePrompt: 1024,
    docs: 'https://platform.claude.com/docs/en/models/sonnet-5/overview',
  },
  {
    id: 'claude-opus-5',
    name: 'Claude Opus 5',
    status: 'legacy',
    released: '2026-07-24',
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    prices: {
      standard: { input: 5, cacheWrite: 6.25, cacheRead: 0.5, output: 25 },
      recordedOn: RECORDED,
      source: 'https://platform.claude.com/docs/en/about-claude/models/whats-new-opus-5',
    },
    forcedToolChoice: true,
    thinking: { whenOmitted: 'adaptive', accepts: ['adaptive', 'disabled'], note: 'disabled only at effort high or below' },
    effort: { levels: ALL_EFFORTS, default: 'high' },
    samplingParameters: false,
    prefill: false,
    minCacheablePrompt: 512,
    docs: 'https://platform.claude.com/docs/en/about-claude/models/whats-new-opus-5',
  },
  {
    id: 'claude-sonnet-4-6',
    name: 'Claude Sonnet 4.6',
    status: 'legacy',
    released: '2026-02-17',
    contextWindow: 1_000_000,
    maxOutput: 128_000,
    prices: {
      // $3 / $15 from the overview; cache prices from the standard multipliers (1.25× write, 0.1× read).
      standard: { input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15 },
      recordedOn: RECORDED,
      source: 'https://platform.claude.com/docs/en/models/sonnet-4-6/overview',
    },
    forcedToolChoice: true,
    thinking: { whenOmitted: 'off', accepts: ['adaptive', 'enabled', 'disabled'], note: 'enabled (budget_tokens) is deprecated' },
    effort: { levels: ['low', 'medium', 'high', 'max'], default: 'high' },
    samplingParameters: true,
    prefill: false,
    minCacheablePrompt: 1024,
    docs: 'https://platform.claude.com/docs/en/models/sonnet-4-6/overview',
  },
  {
    id: 'claude-haiku-4-5',
    aliases: ['claude-haiku-4-5-20251001'],
    name: 'Claude Haiku 4.5',
    status: 'legacy',
    released: '2025-10-15',
    contextWindow: 200_000,
    maxOutput: 64_000,
    prices: {
      standard: { input: 1, cacheWrite: 1.25, cacheRead: 0.1, output: 5 },
      recordedOn: RECORDED,
      source: 'https://platform.claude.com/docs/en/about-claude/pricing',
    },
    forcedToolChoice: true,
    thinking: { whenOmitted: 'off', accepts: ['enabled', 'disabled'] },
    samplingParameters: true,
    prefill: true,
    minCacheablePrompt: 4096,
    docs: 'https://platform.claude.com/docs/en/models/haiku-4-5/overview',
  },
];

/** The current Sonnet decides each step; the cheapest current model writes step summaries and run-memory tips. */
export const DEFAULT_MODEL = 'claude-sonnet-5-5';
export const DEFAULT_FAST_MODEL = 'claude-haiku-5-5';

/**
 * What an id bwa does not know gets: the strictest rules any model has (no forced tool choice, no sampling
 * parameters, no prefill, thinking and effort left to the model), the smallest documented limits, no prices.
 */
export function strictestRules(id: string): ModelCapabilities {
  return {
    id,
    name: id,
    status: 'current',
    released: '',
    contextWindow: 200_000,
    maxOutput: 64_000,
    forcedToolChoice: false,
    thinking: { whenOmitted: 'adaptive', accepts: ['adaptive'] },
    samplingParameters: false,
    prefill: false,
    minCacheablePrompt: 4096,
    docs: 'https://platform.claude.com/docs/en/models/overview',
  };
}

export type ModelLookup = { known: true; model: ModelCapabilities } | { known: false; model: ModelCapabilities };

export function lookupModel(id: string): ModelLookup {
  const model = MODELS.find(m => m.id === id || m.aliases?.includes(id));
  return model ? { known: true, model } : { known: false, model: strictestRules(id) };
}

export const capabilitiesOf = (id: string): ModelCapabilities => lookupModel(id).model;
