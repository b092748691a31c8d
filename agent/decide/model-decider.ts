import { authoredTextsOf } from '../task/authored-text';
import type Anthropic from '@anthropic-ai/sdk';
import type { ActionCall } from '../actions/core/dispatch';
import { actionHas, actionNames } from '../actions/registry';
import { isReflectionKey, Reflection } from '../evidence/reflection';
import type { Usage } from '../evidence/result-schema';
import { addUsage, emptyUsage } from '../evidence/result-schema';
import { historyTokenBudget } from '../snapshot';
import type { Sample } from '../task/samples';
import type { TaskSpec } from '../task/schema';
import { fitHistory, promptHistory } from './history';
import { deriveRunState, renderRunState } from './run-state';
import { StepSummarizer } from './summaries';
import { modelToolDefinitions, type ModelTool } from './model-tools';
import { ModelAnswerError, type ModelClient, type ModelReply } from './model-client';
import type { ModelSettings } from './model-settings';
import { NON_STREAMING_MAX_TOKENS } from './request-shape';
import { capabilitiesOf } from './model-capabilities';
import { buildSystemBlocks, buildUserMessage, withScreenshot, type SystemBlock } from './prompt';
import type { RequestRoute } from './request-route';
import type { Consolidation, Decider, Decision, DecisionInput } from './types';

const REFLECTION_MAX_CHARS = 160;

// Described once in the system prompt (toolConventions), not in every tool; kept to REFLECTION_MAX_CHARS when read.
const lightReflection = Reflection.pick({ next_goal: true });
const fullReflection = Reflection.required();

export interface ModelDeciderOptions {
  attempt: number;
  /** Tips from earlier samples of the run, chosen when the sample starts (later lessons wait for the next sample). */
  tips?: readonly string[];
  /** Model usage outside decide() (step summaries) is reported here. */
  onUsage?: (usage: Usage) => void;
  /** False when the task has no input files: the upload tool is left out (it could only fail). */
  canUpload?: boolean;
}

/**
 * Claude decides each step through tool use over the live page state. Tools and system blocks are built once per
 * sample and sent byte-identical on every request (decisions, corrective turns, the final consolidation), so
 * the prompt cache holds them from the second request on; only the user message changes.
 */
export class ModelDecider implements Decider {
  readonly kind = 'model';
  readonly needsView = true;

  private readonly summarizer: StepSummarizer;
  private readonly tools: ModelTool[];
  private readonly system: SystemBlock[];
  private readonly route: RequestRoute;
  /** The task author's words in the prompt: sent as written. */
  private readonly authored: readonly string[];

  constructor(
    private readonly task: TaskSpec,
    private readonly sample: Sample,
    private readonly client: ModelClient,
    options: ModelDeciderOptions,
  ) {
    const reflection = client.settings.reflection;
    this.route = { taskId: task.task_id, sampleId: sample.sample_id, attempt: options.attempt };
    this.authored = authoredTextsOf(task);
    this.summarizer = new StepSummarizer(client, task.goal, usage => options.onUsage?.(usage), this.route);
    const actions = options.canUpload === false ? actionNames().filter(name => name !== 'upload') : actionNames();
    this.tools = modelToolDefinitions(reflection === 'full' ? fullReflection : lightReflection, actions);
    this.system = buildSystemBlocks(task, sample, { tips: options.tips, reflection, batch: turnLimit(client.settings) });
  }

  async decide(input: DecisionInput, signal: AbortSignal): Promise<Decision> {
    const settings = this.client.settings;
    await this.summarizer.update(input.step, input.history, signal, { ...input.accumulated, ...input.extractedSoFar });
    const recent = input.history.filter(e => e.step > this.summarizer.summarizedThrough);
    const user = buildUserMessage({
      step: input.step,
      maxSteps: input.maxSteps,
      pageText: input.view?.text ?? '(no page state)',
      notices: input.notices,
      accumulated: input.accumulated,
      extracted: input.extractedSoFar,
      checked: input.checkedSoFar,
      history: promptHistory(recent, historyTokenBudget(settings.contextWindow), settings.reflection === 'full'),
      summaries: this.summarizer.shown,
      runState: renderRunState(deriveRunState(input.history, input.view?.signature)),
      visibleElements: input.visibleElements,
      lastStep: input.allowedActions !== undefined && input.allowedActions.every(a => actionHas(a, 'terminal')),
    });
    const content = input.view?.screenshot ? withScreenshot(user, input.view.screenshot) : user;
    const usage = emptyUsage();
    const asked = await this.askForCalls(content, input.allowedActions, { signal, usage });
    const limit = turnLimit(settings);
    const actions = asked.calls.slice(0, limit).map(c => c.action);
    const decision: Decision = { actions, reflection: asked.calls[0]?.reflection, usage, model: asked.reply.model };
    const unrun = asked.calls.slice(limit).map(c => c.action.name);
    if (unrun.length)
      decision.notices = [
        `${unrun.length} more action(s) of your last turn were not run (${unrun.join(', ')}): at most ${limit} per turn. Give them again if they are still needed.`,
      ];
    const notes = [...asked.notes];
    if (asked.reply.fellBackFrom) notes.unshift(`primary model ${asked.reply.fellBackFrom} failed; fallback ${asked.reply.model} answered`);
    if (asked.reply.message.stop_reason === 'max_tokens') notes.push('answer cut at max_tokens');
    if (notes.length) decision.modelNote = notes.join('; ');
    return decision;
  }

  /**
   * One request that must come back with a tool call, steered by the prompt (forced tool choice is sent only to
   * models that accept it). A reply cut at max_tokens before any call is asked again once with twice the room;
   * a reply without a usable call gets one corrective turn. Every request is counted in `usage`.
   */
  private async askForCalls(
    content: Anthropic.ContentBlockParam[],
    allowed: readonly string[] | undefined,
    options: { signal: AbortSignal; usage: Usage; model?: string; allowFallback?: boolean; forcedTool?: string },
  ): Promise<{ reply: ModelReply; calls: ReturnType<typeof allowedCalls>; notes: string[] }> {
    const settings = this.client.settings;
    const notes: string[] = [];
    const ask = async (blocks: Anthropic.ContentBlockParam[], maxTokens?: number) => {
      const reply = await this.client.create(
        {
          system: this.system,
          tools: this.tools as Anthropic.Tool[],
          tool_choice: options.forcedTool
            ? { type: 'tool', name: options.forcedTool }
            : { type: 'any', disable_parallel_tool_use: !settings.multiActions },
          messages: [{ role: 'user', content: blocks }],
        },
        {
          purpose: 'decide',
          signal: options.signal,
          route: this.route,
          authored: this.authored,
          model: options.model,
          allowFallback: options.allowFallback,
          exactMaxTokens: maxTokens,
        },
      );
      addUsage(options.usage, reply.usage);
      return reply;
    };
    let reply = await ask(content);
    let calls = allowedCalls(reply.message, allowed);
    if (calls.length === 0 && reply.message.stop_reason === 'max_tokens') {
      const more = Math.min(reply.maxTokens * 2, capabilitiesOf(reply.model).maxOutput, NON_STREAMING_MAX_TOKENS);
      if (more > reply.maxTokens) {
        notes.push(`the answer ended at max_tokens (${reply.maxTokens}) before any tool call: asked again with ${more}`);
        reply = await ask(content, more);
        calls = allowedCalls(reply.message, allowed);
      }
    }
    if (calls.length === 0) {
      // The step's limits are in the prompt, and no tool choice is forced on the current models: one corrective turn.
      const correction = `Your previous answer ${whatWasWrong(reply.message, allowed)}. Answer with a tool call only${allowed ? ` (${allowed.join(' or ')})` : ''}.`;
      reply = await ask([...content, { type: 'text', text: correction }]);
      calls = allowedCalls(reply.message, allowed);
      if (calls.length === 0)
        throw new ModelAnswerError(
          `model ${reply.model} gave no usable answer twice: its answer ${whatWasWrong(reply.message, allowed)} (stop_reason ${reply.message.stop_reason})`,
          options.usage,
        );
    }
    return { reply, calls, notes };
  }

  async consolidate(input: DecisionInput, reason: string, options: { preferFallback: boolean; signal: AbortSignal }): Promise<Consolidation> {
    const settings = this.client.settings;
    const user = buildUserMessage({
      step: input.step,
      maxSteps: input.maxSteps,
      pageText: input.view?.text ?? '(not shown for the final consolidation)',
      notices: [consolidationNote(reason)],
      accumulated: input.accumulated,
      extracted: input.extractedSoFar,
      checked: input.checkedSoFar,
      history: { lines: fitHistory(input.history, historyTokenBudget(settings.contextWindow)), stable: false },
      lastStep: true,
    });
    const model = options.preferFallback && settings.fallbackModel ? settings.fallbackModel : settings.model;
    const usage = emptyUsage();
    const asked = await this.askForCalls(user, [CONSOLIDATE_TOOL], {
      signal: options.signal,
      usage,
      model,
      allowFallback: !options.preferFallback,
      forcedTool: CONSOLIDATE_TOOL,
    });
    const call = asked.calls[0];
    const extracted = (call?.action.args.extracted ?? {}) as Record<string, unknown>;
    const judgment = call?.action.args.judgment as Record<string, unknown> | undefined;
    return { extracted, judgment, usage, model: asked.reply.model };
  }
}

/** The most calls one turn may hold: a batch only when batching is on. */
function turnLimit(settings: ModelSettings): number {
  return settings.multiActions ? settings.maxActionsPerStep : 1;
}

function allowedCalls(message: Anthropic.Message, allowed: readonly string[] | undefined) {
  return toolCalls(message).filter(call => !allowed || allowed.includes(call.action.name));
}

function whatWasWrong(message: Anthropic.Message, allowed: readonly string[] | undefined): string {
  const called = toolCalls(message).map(c => c.action.name);
  if (called.length === 0) return 'contained no tool call';
  return `called ${called.join(', ')}, but only ${allowed?.join(' or ')} ${allowed?.length === 1 ? 'is' : 'are'} available now`;
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
        if (isReflectionKey(key)) {
          if (typeof value === 'string') reflection[key] = value.slice(0, REFLECTION_MAX_CHARS);
        } else args[key] = value;
      }
      return { action: { name: block.name, args }, reflection: Object.keys(reflection).length ? reflection : undefined };
    });
}
