import Anthropic from '@anthropic-ai/sdk';
import { callUsage, FAST_MODEL_PURPOSES, type ModelPurpose, type Usage } from '../evidence/usage';
import { env, secretsFromEnv } from '../env/read';
import { SecretMasker } from '../secrets/masker';
import { SIDE_TASK_EFFORT, type ModelSettings } from './model-settings';
import { shapeRequest } from './request-shape';
import { routeHeaders, type RequestRoute } from './request-route';

/**
 * What a caller asks for: `tool_choice` "any"/"tool" says a tool call is required, `max_tokens` the room its answer
 * needs — request-shape.ts decides how each model is asked (forcing only where accepted, room added for thinking).
 */
export type MessageParams = Omit<Anthropic.MessageCreateParamsNonStreaming, 'model' | 'max_tokens'> & { max_tokens?: number };

export interface ModelReply {
  message: Anthropic.Message;
  model: string;
  usage: Usage;
  /** The max_tokens the request was sent with (thinking room included). */
  maxTokens: number;
  /** Set when the primary model failed and the fallback answered. */
  fellBackFrom?: string;
}

/**
 * A failure after the SDK's own retries (and the fallback model, when configured). `rejected`: the API answered
 * and refused the request (400, 401, 403, 404) — a setting to change, not a model out of reach.
 */
export class ModelCallError extends Error {
  readonly code: string = 'BWA_MODEL';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    readonly rejected = false,
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

/** The answer's usage as the SDK reports it: output_tokens already includes thinking, itemised in output_tokens_details. */
export function usageOf(message: Anthropic.Message, purpose: ModelPurpose, screenshot = false): Usage {
  const u = message.usage;
  return callUsage(
    purpose,
    {
      input_tokens: u.input_tokens ?? 0,
      output_tokens: u.output_tokens ?? 0,
      cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
      cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
    },
    { thinking_tokens: u.output_tokens_details?.thinking_tokens ?? 0, screenshot },
  );
}

export interface CallOptions {
  /** What the call is for: its usage is filed under it. */
  purpose: ModelPurpose;
  model?: string;
  signal?: AbortSignal;
  allowFallback?: boolean;
  /** The task and sample the call serves, sent as request headers (see RequestRoute). */
  route?: RequestRoute;
  /** max_tokens as sent, thinking room included: a retry that asks for more room than shaping gives. */
  exactMaxTokens?: number;
  /** The task author's own words the request quotes (task/authored-text.ts): sent as written, never masked. */
  authored?: readonly string[];
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
    // Safe by default: every client masks the secrets of its environment, however it was constructed.
    private readonly masker: SecretMasker = SecretMasker.of(secretsFromEnv()),
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
      const failure = toModelError(error, model, this.settingOf(model));
      const fallback = this.settings.fallbackModel;
      if (!failure.retryable || options.allowFallback === false || !fallback || fallback === model || options.signal?.aborted) throw failure;
      try {
        return { ...(await this.once(fallback, params, options, 0)), fellBackFrom: model };
      } catch (fallbackError) {
        const second = toModelError(fallbackError, fallback, 'AGENT_FALLBACK_MODEL');
        throw new ModelCallError(`${failure.message}; fallback ${second.message}`, second.retryable, second.status, second.rejected);
      }
    }
  }

  /** The request as `model` accepts it (shaped per model: a fallback model may follow other rules). */
  shaped(model: string, params: MessageParams, purpose: ModelPurpose, exactMaxTokens?: number): Anthropic.MessageCreateParamsNonStreaming {
    // Step summaries and run-memory tips are a few lines of text: the fast model at the lowest effort.
    const side = FAST_MODEL_PURPOSES.includes(purpose);
    const wish = {
      effort: side ? SIDE_TASK_EFFORT : this.settings.effort,
      effortToUnknown: !side && this.settings.effortExplicit,
      answerTokens: this.settings.maxTokens,
    };
    return { ...shapeRequest(model, params, wish, exactMaxTokens), model };
  }

  private async once(model: string, params: MessageParams, options: CallOptions, maxRetries?: number): Promise<ModelReply> {
    const body = this.shaped(model, maskRequest(params, this.masker.keeping(options.authored ?? [])), options.purpose, options.exactMaxTokens);
    let message: Anthropic.Message;
    try {
      message = await this.client.messages.create(body, {
        signal: options.signal,
        headers: routeHeaders(options.route),
        ...(maxRetries !== undefined ? { maxRetries } : {}),
      });
    } catch (error) {
      throw toModelError(error, model, this.settingOf(model));
    }
    return { message, model, usage: usageOf(message, options.purpose, carriesImage(params)), maxTokens: body.max_tokens };
  }

  /** The variable that names a model, for a message that says what to change. */
  private settingOf(model: string): string {
    if (model === this.settings.model) return 'AGENT_MODEL';
    if (model === this.settings.fastModel) return 'AGENT_FAST_MODEL';
    return model === this.settings.fallbackModel ? 'AGENT_FALLBACK_MODEL' : 'AGENT_MODEL';
  }
}

/**
 * The last gate before anything leaves for the model: a secret typed into a page comes back in the page state
 * (a field's value), so every text we send is masked here, whatever built it — by the request's structure: text
 * blocks, tool inputs and tool results; never a block's type, an id, a tool name or an image. The task author's
 * words stay as written.
 */
function maskRequest(params: MessageParams, masker: SecretMasker): MessageParams {
  if (masker.isEmpty) return params;
  const block = <B extends { type: string }>(value: B): B => {
    if (value.type === 'text') return { ...value, text: masker.text((value as unknown as Anthropic.TextBlockParam).text) };
    if (value.type === 'tool_use') return { ...value, input: masker.value((value as unknown as Anthropic.ToolUseBlockParam).input) };
    if (value.type !== 'tool_result') return value;
    const { content } = value as unknown as Anthropic.ToolResultBlockParam;
    return { ...value, content: typeof content === 'string' ? masker.text(content) : content?.map(block) };
  };
  const content = <C extends string | Anthropic.ContentBlockParam[]>(c: C): C => (typeof c === 'string' ? masker.text(c) : c.map(block)) as C;
  return {
    ...params,
    ...(params.system === undefined ? {} : { system: typeof params.system === 'string' ? masker.text(params.system) : params.system.map(block) }),
    messages: params.messages.map(m => ({ ...m, content: content(m.content) }) as Anthropic.MessageParam),
  };
}

/** The last user message holds an image (a screenshot beside the page state). */
function carriesImage(params: MessageParams): boolean {
  const last = params.messages.at(-1);
  return last?.role === 'user' && Array.isArray(last.content) && last.content.some(block => block.type === 'image');
}

/** The API's own message (the SDK's error.message is the status plus the whole JSON body). */
function apiMessage(error: InstanceType<typeof Anthropic.APIError>): string {
  const body = error.error as { error?: { message?: unknown } } | undefined;
  return typeof body?.error?.message === 'string' ? body.error.message : error.message;
}

/** Which setting a 400 points at, from what the API named. */
function settingFor400(detail: string, setting: string): string {
  if (/effort/i.test(detail)) return 'change AGENT_EFFORT (`npx bwa check` lists the levels this model takes)';
  if (/max_tokens/i.test(detail)) return 'change AGENT_MAX_TOKENS';
  if (/tool_choice|thinking|temperature|top_p|top_k|prefill/i.test(detail))
    return `bwa's model table (agent/decide/model-capabilities.ts) has the wrong rules for this model: set ${setting} to a model it lists (npx bwa check)`;
  return `check ${setting} and AGENT_EFFORT (npx bwa check sends one request with them)`;
}

export function toModelError(error: unknown, model: string, setting = 'AGENT_MODEL'): ModelCallError {
  if (error instanceof ModelCallError) return error;
  if (error instanceof Anthropic.APIConnectionTimeoutError) return new ModelCallError(`model ${model}: request timed out`, true);
  if (error instanceof Anthropic.APIUserAbortError) return new ModelCallError(`model ${model}: request aborted`, false);
  if (error instanceof Anthropic.APIConnectionError) return new ModelCallError(`model ${model}: connection failed (${error.message})`, true);
  if (error instanceof Anthropic.AuthenticationError)
    return new ModelCallError(
      `model ${model}: the API rejected the key (401 ${apiMessage(error)}) — set a valid ANTHROPIC_API_KEY`,
      false,
      401,
      true,
    );
  if (error instanceof Anthropic.PermissionDeniedError)
    return new ModelCallError(
      `model ${model}: the API denied the request (403 ${apiMessage(error)}) — check that ANTHROPIC_API_KEY's workspace may use ${setting}=${model}`,
      false,
      403,
      true,
    );
  if (error instanceof Anthropic.NotFoundError)
    return new ModelCallError(
      `model ${model}: the API does not serve this model (404 ${apiMessage(error)}) — set ${setting} to a model id it serves (npx bwa check)`,
      false,
      404,
      true,
    );
  if (error instanceof Anthropic.APIError) {
    const status = error.status;
    const retryable = status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500);
    const detail = apiMessage(error);
    if (status === 400)
      return new ModelCallError(
        `model ${model}: the API rejected the request (400 ${detail}) — ${settingFor400(detail, setting)}`,
        false,
        status,
        true,
      );
    const kind = status === 429 ? 'rate limited (429)' : status === 529 ? 'overloaded (529)' : `HTTP ${status}`;
    return new ModelCallError(`model ${model}: ${kind} after retries — ${detail}`, retryable, status);
  }
  return new ModelCallError(`model ${model}: ${error instanceof Error ? error.message : String(error)}`, false);
}
