import type Anthropic from '@anthropic-ai/sdk';
import { lookupModel, type Effort, type ModelCapabilities } from './model-capabilities';

/**
 * Turns what a caller wants (a tool call, an effort level, room for its answer) into a request the model's API
 * accepts, from the capability table: forced tool choice only where it is accepted, effort only at a level the
 * model takes, max_tokens with room for the thinking that counts towards it. bwa never sends `thinking`,
 * sampling parameters or a prefill: thinking is left to the model, and the others are rejected by the current
 * models.
 */

/** Thinking room per effort level, on top of the answer's own room: thinking tokens count towards max_tokens. */
export const THINKING_ROOM: Readonly<Record<Effort, number>> = { low: 2_048, medium: 4_096, high: 8_192, xhigh: 16_384, max: 16_384 };
/** The SDK wants streaming above this (a long non-streaming request may outlive an HTTP connection). */
export const NON_STREAMING_MAX_TOKENS = 21_333;

export interface ShapeWish {
  /** The effort bwa wants for this call. */
  effort: Effort;
  /** Send the effort to a model bwa does not know (AGENT_EFFORT was set by hand). */
  effortToUnknown: boolean;
  /** Room for the answer itself. */
  answerTokens: number;
}

export type ShapedParams = Omit<Anthropic.MessageCreateParamsNonStreaming, 'model'>;

/** The effort a request to this model carries: the wanted level where accepted, else none (the model's default). */
export function effortFor(model: string, wish: Pick<ShapeWish, 'effort' | 'effortToUnknown'>): Effort | undefined {
  const { known, model: caps } = lookupModel(model);
  if (!known) return wish.effortToUnknown ? wish.effort : undefined;
  return caps.effort?.levels.includes(wish.effort) ? wish.effort : undefined;
}

/** Whether the model thinks on a request that sends no `thinking` field. */
export const thinksByDefault = (caps: ModelCapabilities): boolean => caps.thinking.whenOmitted === 'adaptive';

export function maxTokensFor(model: string, answerTokens: number, effort: Effort | undefined): number {
  const caps = lookupModel(model).model;
  const room = thinksByDefault(caps) ? THINKING_ROOM[effort ?? caps.effort?.default ?? 'high'] : 0;
  return Math.min(answerTokens + room, caps.maxOutput, NON_STREAMING_MAX_TOKENS);
}

/** tool_choice "any" / "tool" becomes "auto" where forcing is rejected: the prompt asks for a tool call instead. */
export function toolChoiceFor(caps: ModelCapabilities, choice: Anthropic.ToolChoice | undefined): Anthropic.ToolChoice | undefined {
  if (!choice || caps.forcedToolChoice || (choice.type !== 'any' && choice.type !== 'tool')) return choice;
  return { type: 'auto', ...(choice.disable_parallel_tool_use !== undefined ? { disable_parallel_tool_use: choice.disable_parallel_tool_use } : {}) };
}

/**
 * The request for `model`: `params.max_tokens` is the room its answer needs (default `wish.answerTokens`), to which
 * the thinking room of the effort sent is added; `exactMaxTokens` (a retry asking for more room) is sent as it is.
 */
export function shapeRequest(
  model: string,
  params: Omit<ShapedParams, 'max_tokens'> & { max_tokens?: number },
  wish: ShapeWish,
  exactMaxTokens?: number,
): ShapedParams {
  const caps = lookupModel(model).model;
  const effort = effortFor(model, wish);
  const { tool_choice, output_config, max_tokens: answerTokens, ...rest } = params;
  const choice = toolChoiceFor(caps, tool_choice);
  const config = effort ? { ...output_config, effort } : output_config;
  return {
    ...rest,
    ...(choice ? { tool_choice: choice } : {}),
    ...(config ? { output_config: config } : {}),
    max_tokens: exactMaxTokens ?? maxTokensFor(model, answerTokens ?? wish.answerTokens, effort),
  };
}

/** The rules a request to `model` follows, one line each: what `bwa check` prints and the start-of-run warning names. */
export function describeRules(model: string, wish: Pick<ShapeWish, 'effort' | 'effortToUnknown' | 'answerTokens'>): string[] {
  const { known, model: caps } = lookupModel(model);
  const effort = effortFor(model, wish);
  const effortLine = effort
    ? `output_config.effort "${effort}"${caps.effort ? ` (accepted: ${caps.effort.levels.join(', ')}; the model's default: ${caps.effort.default})` : ''}`
    : caps.effort
      ? `no effort sent: ${wish.effort} is not among ${caps.effort.levels.join(', ')}; the model's default (${caps.effort.default}) applies`
      : known
        ? 'no effort sent: the model takes none'
        : 'no effort sent (AGENT_EFFORT unset): the model decides';
  return [
    `${caps.name}${known ? ` (${caps.status}, released ${caps.released})` : ': not in bwa’s model table — the strictest rules apply'}`,
    caps.forcedToolChoice
      ? 'tool_choice: a tool call is required ("any")'
      : 'tool_choice: "auto" — forced tool use is rejected, so the prompt asks for a tool call and a reply without one gets one corrective turn',
    `thinking: not sent — ${thinksByDefault(caps) ? 'adaptive thinking, on by default' : 'off by default'} (accepted types: ${caps.thinking.accepts.join(', ')}${caps.thinking.note ? `; ${caps.thinking.note}` : ''})`,
    effortLine,
    `max_tokens: ${maxTokensFor(model, wish.answerTokens, effort)} (${wish.answerTokens} for the answer${thinksByDefault(caps) ? ' + room for thinking, which counts towards it' : ''})`,
    `sampling parameters and assistant prefill: never sent${caps.samplingParameters ? '' : ' (rejected by this model)'}`,
    `context window ${caps.contextWindow.toLocaleString('en-US')} tokens, max output ${caps.maxOutput.toLocaleString('en-US')}`,
  ];
}
