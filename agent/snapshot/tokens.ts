/**
 * Token estimate used everywhere a budget is enforced.
 *
 * Claude's tokenizer is not available offline, so we estimate: ASCII text at 3.2 characters per token
 * (Anthropic quotes ~3.5 for English prose; snapshot lines are denser — refs, quotes, brackets, URLs —
 * so we err towards over-counting), and one token per non-ASCII character (CJK, emoji and accented
 * text tokenize far worse than ASCII). Over-estimating only makes prompts a little shorter than they
 * could be; under-estimating can overflow the context window.
 */
export const ASCII_CHARS_PER_TOKEN = 3.2;

export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < 128) ascii++;
    else other++;
  }
  return Math.ceil(ascii / ASCII_CHARS_PER_TOKEN + other);
}

export const DEFAULT_CONTEXT_WINDOW = 200_000;
/** Share of the whole prompt budget given to the page state; the rest is goal, history and schema. */
export const PAGE_STATE_SHARE = 0.4;

/** The whole-prompt budget: min(24K, max(8K, 8% of the context window)). */
export function promptTokenBudget(contextWindow: number = DEFAULT_CONTEXT_WINDOW): number {
  return Math.min(24_000, Math.max(8_000, Math.floor(contextWindow * 0.08)));
}

/** Share of the whole prompt budget given to the history of earlier steps. */
export const HISTORY_SHARE = 0.3;

/** History budget: 30% of the prompt budget (4,800 tokens for a 200K window). */
export function historyTokenBudget(contextWindow: number = DEFAULT_CONTEXT_WINDOW): number {
  return Math.floor(promptTokenBudget(contextWindow) * HISTORY_SHARE);
}

/** Page-state budget: 40% of the prompt budget (6,400 tokens for a 200K window). */
export function defaultTokenBudget(contextWindow: number = DEFAULT_CONTEXT_WINDOW): number {
  return Math.floor(promptTokenBudget(contextWindow) * PAGE_STATE_SHARE);
}
