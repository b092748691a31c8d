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

/** The whole-prompt budget's share of the context window, and its floor and cap. */
export const PROMPT_WINDOW_SHARE = 0.08;
export const PROMPT_FLOOR_TOKENS = 8_000;
export const PROMPT_CAP_TOKENS = 16_000;

/**
 * The whole-prompt budget: PROMPT_WINDOW_SHARE of the context window, between the floor and the cap. The cap is the
 * budget a 200K window gives: the current models' 1M windows do not make the part of a page a step needs any larger,
 * only dearer.
 */
export function promptTokenBudget(contextWindow: number = LARGE_WINDOW): number {
  return Math.min(PROMPT_CAP_TOKENS, Math.max(PROMPT_FLOOR_TOKENS, Math.floor(contextWindow * PROMPT_WINDOW_SHARE)));
}

/** The budget rule in words, from the constants (AGENT_CONTEXT_WINDOW's description). */
export function budgetRule(): string {
  const k = (tokens: number) => `${tokens / 1000}K`;
  const percent = (share: number) => `${Math.round(share * 100)}%`;
  return `min(${k(PROMPT_CAP_TOKENS)}, max(${k(PROMPT_FLOOR_TOKENS)}, ${percent(PROMPT_WINDOW_SHARE)} of it)) tokens; ${percent(PAGE_STATE_SHARE)} of that for the page state, ${percent(HISTORY_SHARE)} for history`;
}

/** Share of the whole prompt budget given to the history of earlier steps. */
export const HISTORY_SHARE = 0.3;

/** History budget: HISTORY_SHARE of the prompt budget (4,800 tokens for a window of 200K or more). */
export function historyTokenBudget(contextWindow: number = LARGE_WINDOW): number {
  return Math.floor(promptTokenBudget(contextWindow) * HISTORY_SHARE);
}

/** Page-state budget: PAGE_STATE_SHARE of the prompt budget (6,400 tokens for a window of 200K or more). */
export function defaultTokenBudget(contextWindow: number = LARGE_WINDOW): number {
  return Math.floor(promptTokenBudget(contextWindow) * PAGE_STATE_SHARE);
}
