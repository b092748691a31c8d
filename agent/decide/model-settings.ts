import { envOf, type EnvSource } from '../env/read';
import { EFFORT_LEVELS, lookupModel, type Effort } from './model-capabilities';

/** Model-side settings, from the environment (docs/environment.md lists each variable). */
export interface ModelSettings {
  model: string;
  fastModel: string;
  fallbackModel?: string;
  reflection: 'light' | 'full';
  /** Room for the answer itself (the tool calls); request shaping adds room for the model's thinking. */
  maxTokens: number;
  maxRetries: number;
  timeoutMs: number;
  contextWindow: number;
  multiActions: boolean;
  maxActionsPerStep: number;
  /** output_config.effort for AGENT_MODEL's calls (decisions, judgments, plans). */
  effort: Effort;
  /** AGENT_EFFORT was set: sent even to a model bwa does not know. */
  effortExplicit: boolean;
}

/**
 * Choosing a browser action is a short decision over a page state the prompt already narrows: medium is the
 * docs' "balanced" level for agentic work, and high (Sonnet 5.5's default) spends thinking on steps that need
 * little (docs/model.md gives the figures).
 */
export const DEFAULT_DECISION_EFFORT: Effort = 'medium';
/** Step summaries and run-memory tips: a few lines of plain text each. */
export const SIDE_TASK_EFFORT: Effort = 'low';

/** AGENT_EFFORT, checked against the levels AGENT_MODEL takes (any of the five for a model bwa does not know). */
function checkedEffort(model: string, effort: Effort | undefined): { effort: Effort; explicit: boolean } {
  if (!effort) return { effort: DEFAULT_DECISION_EFFORT, explicit: false };
  const { known, model: caps } = lookupModel(model);
  const accepted: readonly Effort[] = known ? (caps.effort?.levels ?? []) : EFFORT_LEVELS;
  if (accepted.length === 0)
    throw new Error(`AGENT_EFFORT: ${model} takes no effort level (output_config.effort is not accepted) — unset AGENT_EFFORT`);
  if (!accepted.includes(effort)) throw new Error(`AGENT_EFFORT must be one of ${accepted.join(', ')} for ${model} (got "${effort}")`);
  return { effort, explicit: true };
}

export function modelSettings(source?: EnvSource): ModelSettings {
  const env = envOf(source);
  const model = env.AGENT_MODEL;
  const effort = checkedEffort(model, env.AGENT_EFFORT);
  return {
    model,
    fastModel: env.AGENT_FAST_MODEL,
    fallbackModel: env.AGENT_FALLBACK_MODEL,
    reflection: env.AGENT_REFLECTION,
    maxTokens: env.AGENT_MAX_TOKENS,
    maxRetries: env.AGENT_MODEL_RETRIES,
    timeoutMs: env.AGENT_MODEL_TIMEOUT_MS,
    contextWindow: env.AGENT_CONTEXT_WINDOW ?? lookupModel(model).model.contextWindow,
    // Independent actions on one page state (a form's fields, a screenshot and its reads) in one turn: each saves a
    // whole request. The loop runs them in order and drops the rest once one fails or the page changes.
    multiActions: env.AGENT_MULTI_ACTIONS,
    maxActionsPerStep: env.AGENT_MAX_ACTIONS_PER_STEP,
    effort: effort.effort,
    effortExplicit: effort.explicit,
  };
}

/** The start-of-run line for configured model ids bwa's table does not hold (never an error: a gateway may alias a model). */
export function unknownModelWarning(s: ModelSettings): string | undefined {
  const named: Array<[string, string | undefined]> = [
    ['AGENT_MODEL', s.model],
    ['AGENT_FAST_MODEL', s.fastModel],
    ['AGENT_FALLBACK_MODEL', s.fallbackModel],
  ];
  const unknown = named.filter(([, id]) => id !== undefined && !lookupModel(id).known);
  if (unknown.length === 0) return undefined;
  return `bwa: ⚠ ${unknown.map(([name, id]) => `${name}=${id}`).join(', ')} not in bwa's model table (agent/decide/model-capabilities.ts): its requests follow the strictest rules — no forced tool choice, no sampling parameters, thinking${s.effortExplicit ? '' : ' and effort'} left to the model, a 200K context window — and no cost can be estimated`;
}
