import { FAST_MODEL_PURPOSES, MODEL_PURPOSES, type Usage } from '../evidence/usage';
import { lookupModel, type PriceSheet } from './model-capabilities';

/** Token counts of one or more requests to one model, split as the API bills them. */
export interface BilledTokens {
  /** Requests these tokens came from (the long-prompt tier is chosen per request: by their average prompt). */
  calls: number;
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
}

/**
 * The prices a request pays: a model with a long-prompt tier (Haiku 5.5) charges every token of a request whose
 * prompt is over its threshold at the higher rate. Over several requests the average prompt decides, an
 * approximation that is exact when their prompts are alike (a sample's decisions are).
 */
export function pricesFor(model: string, tokens: BilledTokens): PriceSheet | undefined {
  const prices = lookupModel(model).model.prices;
  if (!prices) return undefined;
  const prompt = (tokens.input + tokens.cacheWrite + tokens.cacheRead) / Math.max(1, tokens.calls);
  return prices.longPrompt && prompt > prices.longPrompt.above ? prices.longPrompt.prices : prices.standard;
}

/** List price in USD, or undefined for a model bwa has no prices for. */
export function listPrice(model: string, tokens: BilledTokens): number | undefined {
  const price = pricesFor(model, tokens);
  if (!price) return undefined;
  return (
    (tokens.input * price.input + tokens.cacheWrite * price.cacheWrite + tokens.cacheRead * price.cacheRead + tokens.output * price.output) / 1e6
  );
}

/** A usage's tokens for one model: AGENT_FAST_MODEL's purposes, or all the others (AGENT_MODEL's). */
export function billedTokens(usage: Usage, model: 'main' | 'fast'): BilledTokens {
  const total: BilledTokens = { calls: 0, input: 0, cacheWrite: 0, cacheRead: 0, output: 0 };
  const parts = usage.by_purpose
    ? MODEL_PURPOSES.filter(p => FAST_MODEL_PURPOSES.includes(p) === (model === 'fast')).flatMap(p =>
        usage.by_purpose?.[p] ? [usage.by_purpose[p]!] : [],
      )
    : model === 'main'
      ? [{ ...usage, calls: usage.model_calls }]
      : [];
  for (const part of parts) {
    total.calls += part.calls;
    total.input += part.input_tokens;
    total.cacheWrite += part.cache_creation_input_tokens;
    total.cacheRead += part.cache_read_input_tokens;
    total.output += part.output_tokens;
  }
  return total;
}

/** What a usage costs at list price with these two models; undefined when either model used has no prices. */
export function usageCost(usage: Usage, models: { main: string; fast: string }): number | undefined {
  let dollars = 0;
  for (const which of ['main', 'fast'] as const) {
    const tokens = billedTokens(usage, which);
    if (tokens.calls === 0) continue;
    const cost = listPrice(models[which], tokens);
    if (cost === undefined) return undefined;
    dollars += cost;
  }
  return dollars;
}
