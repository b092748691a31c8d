import type Anthropic from '@anthropic-ai/sdk';
import { z } from 'zod';
import type { ActionCall } from '../actions/dispatch';
import { actionNames, toolDefinitions } from '../actions/registry';
import type { Reflection, Usage } from '../evidence/result-schema';
import { addUsage, emptyUsage } from '../evidence/result-schema';
import { promptTokenBudget } from '../snapshot';
import type { Sample } from '../task/samples';
import type { TaskSpec } from '../task/schema';
import { fitHistory } from './history';
import { deriveRunState, renderRunState } from './run-state';
import { StepSummarizer } from './summaries';
import { modelToolDefinitions } from './model-tools';
import { ModelCallError, type ModelClient } from './model-client';
import { buildSystemBlocks, buildUserMessage, sampleContext } from './prompt';
import type { Consolidation, Decider, Decision, DecisionInput } from './types';

const REFLECTION_KEYS = ['evaluation_previous_step', 'memory_update', 'next_goal'] as const;
const REFLECTION_MAX_CHARS = 160;

const lightReflection = z.object({
  next_goal: z.string().max(300).optional().describe('What you intend to do next and why (one short sentence)'),
});
const fullReflection = z.object({
  evaluation_previous_step: z.string().describe('Did the previous action work? One short sentence'),
  memory_update: z.string().describe('A fact to remember for later steps (or "-")'),
  next_goal: z.string().describe('What you intend to do next and why (one short sentence)'),
});

export interface ModelDeciderOptions {
  attempt: number;
  /** Tips from earlier samples of the run, shown in the first steps only. */
  memoryHints?: () => readonly string[];
  /** Model usage outside decide() (step summaries) is reported here. */
  onUsage?: (usage: Usage) => void;
}

const MEMORY_HINT_STEPS = 3;

/** Claude decides each step through tool use over the live page state. */
export class ModelDecider implements Decider {
  readonly kind = 'model';
  readonly needsView = true;

  private readonly summarizer: StepSummarizer;

  constructor(
    private readonly task: TaskSpec,
    private readonly sample: Sample,
    private readonly client: ModelClient,
    private readonly options: ModelDeciderOptions,
  ) {
    this.summarizer = new StepSummarizer(client, task.goal, usage => options.onUsage?.(usage), sampleContext(task.task_id, sample.sample_id, options.attempt));
  }

  async decide(input: DecisionInput, signal: AbortSignal): Promise<Decision> {
    const settings = this.client.settings;
    const allowed = input.allowedActions ?? actionNames();
    const reflection = settings.reflection === 'full' ? fullReflection : lightReflection;
    const tools = modelToolDefinitions(allowed, reflection);
    const hints = input.step <= MEMORY_HINT_STEPS + 1 ? (this.options.memoryHints?.() ?? []) : [];
    const system = buildSystemBlocks(this.task, this.sample, hints, this.options.attempt);
    const budget = promptTokenBudget(settings.contextWindow);
    await this.summarizer.update(input.step, input.history, signal);
    const recent = input.history.filter(e => e.step > this.summarizer.summarizedThrough);
    const user = buildUserMessage({
      task: this.task,
      step: input.step,
      maxSteps: input.maxSteps,
      pageText: input.view?.text ?? '(no page state)',
      notices: input.notices,
      accumulated: input.accumulated,
      extracted: input.extractedSoFar,
      historyLines: fitHistory(recent, Math.floor(budget * 0.3), settings.reflection === 'full'),
      summaries: this.summarizer.shown,
      runState: renderRunState(deriveRunState(input.history)),
      visibleElements: input.visibleElements,
      lastStep: input.allowedActions !== undefined && input.allowedActions.every(a => a === 'done' || a === 'fail'),
    });
    const request = {
      system,
      tools: tools as Anthropic.Tool[],
      tool_choice: { type: 'any' as const, disable_parallel_tool_use: !settings.multiActions },
    };
    const usage = emptyUsage();
    let reply = await this.client.create({ ...request, messages: [{ role: 'user', content: user }] }, { purpose: 'decide', signal });
    addUsage(usage, reply.usage);
    let calls = toolCalls(reply.message);
    if (calls.length === 0) {
      // tool_choice "any" should make this impossible; one explicit re-ask, then it is a model failure.
      reply = await this.client.create(
        { ...request, messages: [{ role: 'user', content: `${user}\n\nYour previous answer contained no tool call. Answer with a tool call only.` }] },
        { purpose: 'decide', signal },
      );
      addUsage(usage, reply.usage);
      calls = toolCalls(reply.message);
      if (calls.length === 0) throw new ModelCallError(`model ${reply.model} answered without a tool call twice (stop_reason ${reply.message.stop_reason})`, false);
    }
    const limit = settings.multiActions ? settings.maxActionsPerStep : 1;
    const actions = calls.slice(0, limit).map(c => c.action);
    const decision: Decision = { actions, reflection: calls[0]?.reflection, usage, model: reply.model };
    if (reply.fellBackFrom) decision.modelNote = `primary model ${reply.fellBackFrom} failed; fallback ${reply.model} answered`;
    if (reply.message.stop_reason === 'max_tokens') decision.modelNote = `${decision.modelNote ? `${decision.modelNote}; ` : ''}answer cut at max_tokens`;
    return decision;
  }

  async consolidate(input: DecisionInput, reason: string, options: { preferFallback: boolean; signal: AbortSignal }): Promise<Consolidation> {
    const settings = this.client.settings;
    const system = buildSystemBlocks(this.task, this.sample, [], this.options.attempt);
    const user = buildUserMessage({
      task: this.task,
      step: input.step,
      maxSteps: input.maxSteps,
      pageText: input.view?.text ?? '(not shown for the final consolidation)',
      notices: [consolidationNote(reason)],
      accumulated: input.accumulated,
      extracted: input.extractedSoFar,
      historyLines: fitHistory(input.history, Math.floor(promptTokenBudget(settings.contextWindow) * 0.3)),
      lastStep: true,
    });
    const model = options.preferFallback && settings.fallbackModel ? settings.fallbackModel : settings.model;
    const reply = await this.client.create(
      {
        system,
        tools: toolDefinitions([CONSOLIDATE_TOOL]) as Anthropic.Tool[],
        tool_choice: { type: 'tool', name: CONSOLIDATE_TOOL },
        messages: [{ role: 'user', content: user }],
      },
      { purpose: 'decide', model, signal: options.signal, allowFallback: !options.preferFallback },
    );
    const call = toolCalls(reply.message)[0];
    const extracted = (call?.action.args.extracted ?? {}) as Record<string, unknown>;
    const judgment = call?.action.args.judgment as Record<string, unknown> | undefined;
    return { extracted, judgment, usage: reply.usage, model: reply.model };
  }
}

const CONSOLIDATE_TOOL = 'done';

/** Shared by decide() and consolidate(): the same prompt, so the model sees everything collected so far. */
function consolidationNote(reason: string): string {
  return `The run for this sample is ending now (${reason}). Do not browse further. Call done with the best-effort output fields from the data collected so far; use null for anything not collected. Never invent values.`;
}

function toolCalls(message: Anthropic.Message): Array<{ action: ActionCall; reflection?: Reflection }> {
  return message.content
    .filter((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use')
    .map(block => {
      const input = (block.input && typeof block.input === 'object' ? block.input : {}) as Record<string, unknown>;
      const args: Record<string, unknown> = {};
      const reflection: Reflection = {};
      for (const [key, value] of Object.entries(input)) {
        if ((REFLECTION_KEYS as readonly string[]).includes(key)) {
          if (typeof value === 'string') reflection[key as keyof Reflection] = value.slice(0, REFLECTION_MAX_CHARS);
        } else args[key] = value;
      }
      return { action: { name: block.name, args }, reflection: Object.keys(reflection).length ? reflection : undefined };
    });
}
