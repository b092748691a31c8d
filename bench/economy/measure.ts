import { PAGE_STATE_CLOSE, PAGE_STATE_OPEN } from '../../agent/decide/prompt';
import type { RecordedRequest } from '../../fixtures/model-server';
import { estimateTokens } from '../../fixtures/model-server/tokens';

/** One sample's model economy, from what the scripted server recorded (the same accounting for every variant). */
export interface SampleFigures {
  task: string;
  sample: string;
  steps: number;
  status: string;
  calls: { decide: number; vision: number; text: number };
  /** Vision requests that repeat an earlier one of the sample: same screenshot bytes and same question. */
  repeatedVision: number;
  /** Decision requests that carried a screenshot beside the page state. */
  screenshotDecisions: number;
  input: { uncached: number; cacheWrite: number; cacheRead: number };
  /** The decision requests alone: a screenshot question has nothing a cache could hold. */
  decideInput: { all: number; cacheRead: number };
  output: number;
  /** Of output, the thinking (output_tokens_details.thinking_tokens). */
  thinking: number;
  /** The tools block of the sample's decider requests (largest seen). */
  toolsTokens: number;
  /** Tokens of the page states the decision requests carried (what the agent perceived, never cached). */
  pageStateTokens: number;
}

/** The page state inside the prompt, delimiters included (the baseline commits this bench compares with print the same delimiters). */
function pageStateTokens(text: string): number {
  const open = text.indexOf(PAGE_STATE_OPEN);
  const close = text.indexOf(PAGE_STATE_CLOSE, open);
  return open < 0 || close < 0 ? 0 : estimateTokens(text.slice(open, close + PAGE_STATE_CLOSE.length));
}

/** Input tokens outside the page state: the prompt the agent controls (tools, instructions, task, history). */
export const inputOutsidePageState = (f: SampleFigures) => inputTokens(f) - f.pageStateTokens;

export const totalCalls = (f: SampleFigures) => f.calls.decide + f.calls.vision + f.calls.text;
export const inputTokens = (f: SampleFigures) => f.input.uncached + f.input.cacheWrite + f.input.cacheRead;
/**
 * Input tokens as the API bills them, in base-input-token units: a 5-minute cache write costs 1.25×, a cache read
 * 0.1× (Anthropic's published prompt-caching multipliers, the same for every current model).
 */
export const billedInputTokens = (f: SampleFigures) => f.input.uncached + 1.25 * f.input.cacheWrite + 0.1 * f.input.cacheRead;
export const cacheReadShare = (f: SampleFigures) => (inputTokens(f) ? f.input.cacheRead / inputTokens(f) : 0);
export const decisionCacheReadShare = (f: SampleFigures) => (f.decideInput.all ? f.decideInput.cacheRead / f.decideInput.all : 0);
/**
 * Cache reads over the decision requests' input outside their page states: whether what the agent keeps the same
 * from request to request (tools, instructions, task, sample, history) is read back, however large the page.
 */
export const promptCacheReadShare = (f: SampleFigures) => {
  const outside = f.decideInput.all - f.pageStateTokens;
  return outside > 0 ? f.decideInput.cacheRead / outside : 0;
};
export const visionShare = (f: SampleFigures) => (totalCalls(f) ? f.calls.vision / totalCalls(f) : 0);
export const screenshotShare = (f: SampleFigures) => (f.calls.decide ? f.screenshotDecisions / f.calls.decide : 0);

export function figuresOf(
  requests: readonly RecordedRequest[],
  task: string,
  sample: string,
  result: { steps: number; status: string },
): SampleFigures {
  const mine = requests.filter(r => r.key.taskId === task && r.key.sampleId === sample && r.response.status === 200);
  const figures: SampleFigures = {
    task,
    sample,
    steps: result.steps,
    status: result.status,
    calls: { decide: 0, vision: 0, text: 0 },
    repeatedVision: 0,
    screenshotDecisions: 0,
    input: { uncached: 0, cacheWrite: 0, cacheRead: 0 },
    decideInput: { all: 0, cacheRead: 0 },
    output: 0,
    thinking: 0,
    toolsTokens: 0,
    pageStateTokens: 0,
  };
  const visionSeen = new Set<string>();
  for (const request of mine) {
    figures.calls[request.kind === 'decider' ? 'decide' : request.kind] += 1;
    if (request.kind === 'vision') {
      const key = `${request.imageHashes.join(',')}\u0000${request.lastUserText}`;
      if (visionSeen.has(key)) figures.repeatedVision += 1;
      visionSeen.add(key);
    }
    const usage = request.response.usage;
    if (usage) {
      figures.input.uncached += usage.input_tokens;
      figures.input.cacheWrite += usage.cache_creation_input_tokens;
      figures.input.cacheRead += usage.cache_read_input_tokens;
      figures.output += usage.output_tokens;
      figures.thinking += request.response.thinkingTokens ?? 0;
      if (request.kind === 'decider') {
        figures.decideInput.all += usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
        figures.decideInput.cacheRead += usage.cache_read_input_tokens;
      }
    }
    if (request.kind === 'decider') {
      if (request.hasImage) figures.screenshotDecisions += 1;
      figures.toolsTokens = Math.max(figures.toolsTokens, request.toolsTokens);
      figures.pageStateTokens += pageStateTokens(request.lastUserText);
    }
  }
  return figures;
}
