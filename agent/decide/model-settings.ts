import { envOf, type EnvSource } from '../env/read';

/** Model-side settings, from the environment (docs/environment.md lists each variable). */
export interface ModelSettings {
  model: string;
  fastModel: string;
  fallbackModel?: string;
  reflection: 'light' | 'full';
  maxTokens: number;
  maxRetries: number;
  timeoutMs: number;
  contextWindow: number;
  multiActions: boolean;
  maxActionsPerStep: number;
}

export function modelSettings(source?: EnvSource): ModelSettings {
  const env = envOf(source);
  return {
    model: env.AGENT_MODEL,
    fastModel: env.AGENT_FAST_MODEL,
    fallbackModel: env.AGENT_FALLBACK_MODEL,
    reflection: env.AGENT_REFLECTION,
    maxTokens: env.AGENT_MAX_TOKENS,
    maxRetries: env.AGENT_MODEL_RETRIES,
    timeoutMs: env.AGENT_MODEL_TIMEOUT_MS,
    contextWindow: env.AGENT_CONTEXT_WINDOW,
    // Independent actions on one page state (a form's fields, a screenshot and its reads) in one turn: each saves a
    // whole request. The loop runs them in order and drops the rest once one fails or the page changes.
    multiActions: env.AGENT_MULTI_ACTIONS,
    maxActionsPerStep: env.AGENT_MAX_ACTIONS_PER_STEP,
  };
}
