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
    multiActions: /^(1|true|on|yes)$/i.test(env.AGENT_MULTI_ACTIONS ?? ''),
    maxActionsPerStep: Math.min(3, Math.max(1, intFromEnv('AGENT_MAX_ACTIONS_PER_STEP', 3, env))),
  };
}
