import Anthropic from '@anthropic-ai/sdk';
import { callUsage, type ModelPurpose, type Usage } from '../evidence/usage';
import { env, secretsFromEnv } from '../env/read';
import { Redactor } from '../evidence/redact';
import type { ModelSettings } from './model-settings';
import { routeHeaders, type RequestRoute } from './request-route';

export type MessageParams = Omit<Anthropic.MessageCreateParamsNonStreaming, 'model' | 'max_tokens'> & { max_tokens?: number };

export interface ModelReply {
  message: Anthropic.Message;
  model: string;
  usage: Usage;
  /** Set when the primary model failed and the fallback answered. */
  fellBackFrom?: string;
}

/** A failure after the SDK's own retries (and the fallback model, when configured). */
export class ModelCallError extends Error {
  readonly code: string = 'BWA_MODEL';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The model answered, but not with anything the agent can act on, even after a corrective turn. */
export class ModelAnswerError extends ModelCallError {
  override readonly code = 'BWA_MODEL_ANSWER';
  constructor(
    message: string,
    readonly usage: Usage,
  ) {
    super(message, false);
  }
}

export function usageOf(message: Anthropic.Message, purpose: ModelPurpose): Usage {
  const u = message.usage;
  return callUsage(purpose, {
    input_tokens: u.input_tokens ?? 0,
    output_tokens: u.output_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
  });
}

export interface CallOptions {
  /** What the call is for: its usage is filed under it. */
  purpose: ModelPurpose;
  model?: string;
  signal?: AbortSignal;
  allowFallback?: boolean;
  /** The task and sample the call serves, sent as request headers (see RequestRoute). */
  route?: RequestRoute;
}

/**
 * The one Anthropic client: retries and timeouts are the SDK's (it honours retry-after); on a retryable
 * failure the fallback model gets one attempt, and the switch is reported, never silent.
 */
export class ModelClient {
  private readonly client: Anthropic;

  constructor(
    readonly settings: ModelSettings,
    apiKey = env.ANTHROPIC_API_KEY,
    // Safe by default: every client redacts the secrets of its environment, however it was constructed.
    private readonly redactor: Redactor = new Redactor(secretsFromEnv()),
  ) {
    if (!apiKey) throw new ModelCallError('ANTHROPIC_API_KEY is not set', false);
    // Tests point ANTHROPIC_BASE_URL at fixtures/model-server.
    this.client = new Anthropic({ apiKey, baseURL: env.ANTHROPIC_BASE_URL, maxRetries: settings.maxRetries, timeout: settings.timeoutMs });
  }

  async create(params: MessageParams, options: CallOptions): Promise<ModelReply> {
    const model = options.model ?? this.settings.model;
    try {
      return await this.once(model, params, options);
    } catch (error) {
      const failure = toModelError(error, model);
      const fallback = this.settings.fallbackModel;
      if (!failure.retryable || options.allowFallback === false || !fallback || fallback === model || options.signal?.aborted) throw failure;
      try {
        return { ...(await this.once(fallback, params, options, 0)), fellBackFrom: model };
      } catch (fallbackError) {
        const second = toModelError(fallbackError, fallback);
        throw new ModelCallError(`${failure.message}; fallback ${second.message}`, second.retryable, second.status);
      }
    }
  }

  private async once(model: string, params: MessageParams, options: CallOptions, maxRetries?: number): Promise<ModelReply> {
    const message = await this.client.messages.create(
      { ...redactParams(params, this.redactor), model, max_tokens: params.max_tokens ?? this.settings.maxTokens },
      { signal: options.signal, headers: routeHeaders(options.route), ...(maxRetries !== undefined ? { maxRetries } : {}) },
    );
    return { message, model, usage: usageOf(message, options.purpose) };
  }
}

/**
 * The last gate before anything leaves for the model: a secret typed into a page comes back in the page state
 * (a field's value), so every text we send is redacted here, whatever built it. Images are left as they are.
 */
function redactParams(params: MessageParams, redactor: Redactor): MessageParams {
  if (redactor.isEmpty) return params;
  const block = <T>(value: T): T => {
    if (value && typeof value === 'object' && (value as { type?: string }).type === 'image') return value;
    return redactor.json(value);
  };
  const content = <C>(c: C): C => (typeof c === 'string' ? (redactor.text(c) as C) : Array.isArray(c) ? (c.map(block) as C) : c);
  return {
    ...params,
    system: content(params.system),
    messages: params.messages.map(m => ({ ...m, content: content(m.content) }) as Anthropic.MessageParam),
  };
}

/** The API's own message (the SDK's error.message is the status plus the whole JSON body). */
function apiMessage(error: InstanceType<typeof Anthropic.APIError>): string {
  const body = error.error as { error?: { message?: unknown } } | undefined;
  return typeof body?.error?.message === 'string' ? body.error.message : error.message;
}

export function toModelError(error: unknown, model: string): ModelCallError {
  if (error instanceof ModelCallError) return error;
  if (error instanceof Anthropic.APIConnectionTimeoutError) return new ModelCallError(`model ${model}: request timed out`, true);
  if (error instanceof Anthropic.APIUserAbortError) return new ModelCallError(`model ${model}: request aborted`, false);
  if (error instanceof Anthropic.APIConnectionError) return new ModelCallError(`model ${model}: connection failed (${error.message})`, true);
  if (error instanceof Anthropic.AuthenticationError)
    return new ModelCallError(`model ${model}: ANTHROPIC_API_KEY was rejected (401) — check the key`, false, 401);
  if (error instanceof Anthropic.PermissionDeniedError)
    return new ModelCallError(`model ${model}: permission denied (403) — ${error.message}`, false, 403);
  if (error instanceof Anthropic.NotFoundError)
    return new ModelCallError(`model ${model}: not found (404) — check AGENT_MODEL / AGENT_FAST_MODEL / AGENT_FALLBACK_MODEL`, false, 404);
  if (error instanceof Anthropic.APIError) {
    const status = error.status;
    const retryable = status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500);
    const detail = apiMessage(error);
    if (status === 400) return new ModelCallError(`model ${model}: invalid request (400) — ${detail}`, false, status);
    const kind = status === 429 ? 'rate limited (429)' : status === 529 ? 'overloaded (529)' : `HTTP ${status}`;
    return new ModelCallError(`model ${model}: ${kind} after retries — ${detail}`, retryable, status);
  }
  return new ModelCallError(`model ${model}: ${error instanceof Error ? error.message : String(error)}`, false);
}
