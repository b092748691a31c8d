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

/** No window given (a page observed outside a model run): the budget of any window large enough to reach the cap. */
const LARGE_WINDOW = Number.POSITIVE_INFINITY;
/** Share of the whole prompt budget given to the page state; the rest is goal, history and schema. */
export const PAGE_STATE_SHARE = 0.4;

/**
 * The whole-prompt budget: min(16K, max(8K, 8% of the context window)). The cap is the budget a 200K window
 * gives: the current models' 1M windows do not make the part of a page a step needs any larger, only dearer.
 */
export function promptTokenBudget(contextWindow: number = LARGE_WINDOW): number {
  return Math.min(16_000, Math.max(8_000, Math.floor(contextWindow * 0.08)));
}

/** Share of the whole prompt budget given to the history of earlier steps. */
export const HISTORY_SHARE = 0.3;

/** History budget: 30% of the prompt budget (4,800 tokens for a window of 200K or more). */
export function historyTokenBudget(contextWindow: number = LARGE_WINDOW): number {
  return Math.floor(promptTokenBudget(contextWindow) * HISTORY_SHARE);
}

/** Page-state budget: 40% of the prompt budget (6,400 tokens for a window of 200K or more). */
export function defaultTokenBudget(contextWindow: number = LARGE_WINDOW): number {
  return Math.floor(promptTokenBudget(contextWindow) * PAGE_STATE_SHARE);
}
