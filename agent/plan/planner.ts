import type Anthropic from '@anthropic-ai/sdk';
import type { ModelClient } from '../decide/model-client';
import { addUsage, emptyUsage, type Usage } from '../evidence/result-schema';
import { BwaInputError } from '../task/input-errors';
import { invalidPlanMessage, plannerRoute, plannerSystem, plannerUserMessage } from './plan-prompt';
import { PLAN_TOOL, planToolDefinition } from './plan-tool';
import { validatePlan, type ValidPlan } from './validate-plan';

/** A plan with samples or a discover block is a few thousand tokens; the decider's default is too small. */
const PLAN_MAX_TOKENS = 8192;

export interface PlanOutcome {
  plan: ValidPlan;
  /** 1, or 2 when the first plan was refused and the model fixed it. */
  attempts: number;
  /** Why the first plan was refused, when it was. */
  refused?: string;
  usage: Usage;
}

/**
 * Asks Claude for a task plan through one tool (forced where the model takes a forced tool choice, asked for in
 * the prompt where it does not), checks it with the task schema, and asks once more: with the exact errors when
 * the plan is invalid (as the tool's error result, so the model sees its own plan), or with a reminder when the
 * answer called no tool.
 */
export async function planTask(sentence: string, client: ModelClient, signal?: AbortSignal): Promise<PlanOutcome> {
  const usage = emptyUsage();
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: plannerUserMessage(sentence) }];
  let refused: string | undefined;
  for (let attempt = 1; attempt <= 2; attempt++) {
    const reply = await client.create(
      {
        system: plannerSystem(),
        tools: [planToolDefinition() as Anthropic.Tool],
        tool_choice: { type: 'tool', name: PLAN_TOOL },
        messages,
        max_tokens: Math.max(PLAN_MAX_TOKENS, client.settings.maxTokens),
      },
      { purpose: 'plan', signal, route: plannerRoute(sentence), authored: [sentence] },
    );
    addUsage(usage, reply.usage);
    const call = reply.message.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use' && b.name === PLAN_TOOL);
    if (!call) {
      if (attempt === 2 || messages.length > 1)
        throw new BwaInputError('BWA_PLAN_NO_ANSWER', `the model answered without calling ${PLAN_TOOL} (stop_reason ${reply.message.stop_reason})`);
      messages[0] = { role: 'user', content: `${plannerUserMessage(sentence)}\n\nAnswer by calling ${PLAN_TOOL}: your last answer called no tool.` };
      continue;
    }
    const checked = validatePlan(call.input);
    if (checked.ok) return { plan: checked.plan, attempts: attempt, refused, usage };
    if (attempt === 2)
      throw new BwaInputError(
        'BWA_PLAN_INVALID',
        `the model's plan is still invalid after one correction:\n${checked.problems}\n(first refusal:\n${refused})`,
      );
    refused = checked.problems;
    messages.push(
      { role: 'assistant', content: replayable(reply.message.content, call) },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, is_error: true, content: invalidPlanMessage(checked.problems) }] },
    );
  }
  throw new Error('unreachable');
}

/**
 * The model's answer as the next request repeats it, in the assistant turn where it belongs: its thinking blocks
 * exactly as answered (the API requires them back within a tool-use turn, unmodified), its words, and its one plan
 * call (each tool_use needs a result). Other calls are dropped: nothing answers them.
 */
function replayable(content: Anthropic.ContentBlock[], call: Anthropic.ToolUseBlock): Anthropic.ContentBlockParam[] {
  return content.flatMap((b): Anthropic.ContentBlockParam[] => {
    if (b.type === 'thinking') return [{ type: 'thinking', thinking: b.thinking, signature: b.signature }];
    if (b.type === 'redacted_thinking') return [{ type: 'redacted_thinking', data: b.data }];
    if (b.type === 'text') return b.text.trim() ? [{ type: 'text', text: b.text }] : [];
    return b === call ? [{ type: 'tool_use', id: call.id, name: call.name, input: call.input }] : [];
  });
}
