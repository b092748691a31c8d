/** Model-side settings, from the environment (README "Environment variables" mirrors this). */
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

function intFromEnv(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer (got "${raw}")`);
  return value;
}

function switchFromEnv(name: string, fallback: boolean, env: NodeJS.ProcessEnv): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|on|yes)$/i.test(raw)) return true;
  if (/^(0|false|off|no)$/i.test(raw)) return false;
  throw new Error(`${name} must be 1 or 0 (got "${raw}")`);
}

export function modelSettings(env: NodeJS.ProcessEnv = process.env): ModelSettings {
  const reflection = (env.AGENT_REFLECTION ?? 'light').toLowerCase();
  if (reflection !== 'light' && reflection !== 'full') throw new Error(`AGENT_REFLECTION must be light or full (got "${reflection}")`);
  return {
    model: env.AGENT_MODEL || 'claude-sonnet-4-6',
    fastModel: env.AGENT_FAST_MODEL || 'claude-haiku-4-5',
    fallbackModel: env.AGENT_FALLBACK_MODEL || undefined,
    reflection,
    maxTokens: intFromEnv('AGENT_MAX_TOKENS', 2048, env),
    maxRetries: intFromEnv('AGENT_MODEL_RETRIES', 3, env),
    timeoutMs: intFromEnv('AGENT_MODEL_TIMEOUT_MS', 120_000, env),
    contextWindow: intFromEnv('AGENT_CONTEXT_WINDOW', 200_000, env),
    // Independent actions on one page state (a form's fields, a screenshot and its reads) in one turn: each saves a
    // whole request. The loop runs them in order and drops the rest once one fails or the page changes.
    multiActions: switchFromEnv('AGENT_MULTI_ACTIONS', true, env),
    maxActionsPerStep: Math.min(3, Math.max(1, intFromEnv('AGENT_MAX_ACTIONS_PER_STEP', 3, env))),
  };
}
