import Anthropic from '@anthropic-ai/sdk';
import { expect, test } from '@playwright/test';
import { routeHeaders } from '../../../agent/decide/request-route';
import { RULE_MESSAGES, THINKING_TOKENS_PER_BLOCK, type ModelServer, startModelServer } from '../../../fixtures/model-server/index';

/** The per-model rules the scripted server enforces, as the docs state them (fixtures/model-server/model-rules.ts). */

const TOOLS: Anthropic.Tool[] = [
  { name: 'screenshot', input_schema: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] } },
  { name: 'done', input_schema: { type: 'object', properties: {} } },
];
const PAGE = '<page_state>\nURL: http://127.0.0.1:4101/x\n[e1] heading "X"\n</page_state>';
type Body = Omit<Anthropic.MessageCreateParamsNonStreaming, 'model'> & { model?: string };

let server: ModelServer;
let client: Anthropic;

test.beforeAll(async () => {
  server = await startModelServer({ apiKey: 'the-key' });
  client = new Anthropic({ apiKey: 'the-key', baseURL: server.url, maxRetries: 0, defaultHeaders: routeHeaders({ taskId: 'rules', sampleId: 's' }) });
});
test.afterAll(async () => server.close());
test.beforeEach(() => {
  server.reset();
  server.setScript('rules', 's', {
    steps: [
      {
        batch: [
          { tool: 'screenshot', args: { label: 'a' } },
          { tool: 'screenshot', args: { label: 'b' } },
        ],
      },
    ],
    text: [{ contains: 'Summarise', answer: 'FOUND: x' }],
    on_exhausted: 'repeat_last',
  });
});

const decision = (model: string, extra: Partial<Body> = {}): Anthropic.MessageCreateParamsNonStreaming =>
  ({ model, max_tokens: 4096, tools: TOOLS, tool_choice: { type: 'auto' }, messages: [{ role: 'user', content: PAGE }], ...extra }) as never;

/** The error body of a refused call (fails the test when the call succeeds). */
async function refusal(call: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the request was accepted').toBeInstanceOf(Anthropic.APIError);
  return { status: (error as InstanceType<typeof Anthropic.APIError>).status!, body: (error as InstanceType<typeof Anthropic.APIError>).error };
}

const invalid = (message: string | RegExp) => ({
  type: 'error',
  error: { type: 'invalid_request_error', message: typeof message === 'string' ? message : expect.stringMatching(message) },
  request_id: expect.stringMatching(/^req_/),
});

test('forced tool choice is a 400 on the current Sonnet, Opus and Fable, in the API error envelope; accepted where the docs accept it', async () => {
  for (const model of ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-fable-5-1', 'claude-fable-5-2'])
    for (const choice of [{ type: 'any' }, { type: 'tool', name: 'done' }] as const)
      expect(await refusal(client.messages.create(decision(model, { tool_choice: choice }))), `${model} ${choice.type}`).toEqual({
        status: 400,
        body: invalid(RULE_MESSAGES.forcedToolChoice),
      });
  for (const model of ['claude-sonnet-4-6', 'claude-sonnet-5', 'claude-opus-5', 'claude-haiku-4-5'])
    expect((await client.messages.create(decision(model, { tool_choice: { type: 'any' } }))).stop_reason, model).toBe('tool_use');
  // Haiku 5.5 takes it, and then answers with the tool call straight away: no thinking block.
  const haiku = await client.messages.create(decision('claude-haiku-5-5', { tool_choice: { type: 'any' } }));
  expect(haiku.content.map(b => b.type)).toEqual(['tool_use', 'tool_use']);
  expect(
    await refusal(
      client.messages.countTokens({
        model: 'claude-sonnet-5-5',
        tools: TOOLS,
        tool_choice: { type: 'any' },
        messages: [{ role: 'user', content: PAGE }],
      }),
    ),
  ).toEqual({
    status: 400,
    body: invalid(RULE_MESSAGES.forcedToolChoice),
  });
});

test('thinking: disabled and budget_tokens are refused on the current models with the documented messages; between_tools only on Sonnet 5.5 at low to high', async () => {
  const think = (model: string, thinking: unknown, effort?: string) =>
    client.messages.create(decision(model, { thinking, ...(effort ? { output_config: { effort } } : {}) } as never));
  expect(await refusal(think('claude-sonnet-5-5', { type: 'disabled' }))).toEqual({
    status: 400,
    body: invalid(RULE_MESSAGES.disabledUseBetweenTools),
  });
  expect(await refusal(think('claude-opus-5-5', { type: 'disabled' }))).toEqual({ status: 400, body: invalid(RULE_MESSAGES.disabled) });
  for (const model of ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5', 'claude-sonnet-5'])
    expect(await refusal(think(model, { type: 'enabled', budget_tokens: 2048 })), model).toEqual({
      status: 400,
      body: invalid(RULE_MESSAGES.enabled),
    });
  expect(await refusal(think('claude-haiku-4-5', { type: 'adaptive' }))).toEqual({ status: 400, body: invalid(RULE_MESSAGES.adaptive) });
  expect((await think('claude-sonnet-4-6', { type: 'enabled', budget_tokens: 2048 })).stop_reason).toBe('tool_use');
  expect((await think('claude-haiku-5-5', { type: 'disabled' }, 'high')).content.map(b => b.type)).toEqual(['tool_use', 'tool_use']);
  expect(await refusal(think('claude-haiku-5-5', { type: 'disabled' }, 'max'))).toMatchObject({ status: 400 });

  // between_tools: thinking only between the calls.
  const between = await think('claude-sonnet-5-5', { type: 'between_tools' }, 'high');
  expect(between.content.map(b => b.type)).toEqual(['tool_use', 'thinking', 'tool_use']);
  expect(await refusal(think('claude-sonnet-5-5', { type: 'between_tools' }, 'xhigh'))).toMatchObject({
    status: 400,
    body: invalid(/between_tools/),
  });
  expect(await refusal(think('claude-sonnet-5-5', { type: 'between_tools', display: 'summarized' }))).toEqual({
    status: 400,
    body: invalid(/thinking\.display: Extra inputs are not permitted/),
  });
  expect(await refusal(think('claude-opus-5-5', { type: 'between_tools' }))).toMatchObject({ status: 400, body: invalid(/between_tools/) });
});

test('effort: output_config.effort at the levels each model takes; sampling parameters and prefill refused where the docs refuse them', async () => {
  const effort = (model: string, level: string) => client.messages.create(decision(model, { output_config: { effort: level } } as never));
  expect((await effort('claude-sonnet-5-5', 'low')).stop_reason).toBe('tool_use');
  expect(await refusal(effort('claude-sonnet-4-6', 'xhigh'))).toMatchObject({
    status: 400,
    body: invalid(/"xhigh" is not supported for this model/),
  });
  expect(await refusal(effort('claude-haiku-4-5', 'low'))).toMatchObject({ status: 400, body: invalid(/effort is not supported for this model/) });
  expect(await refusal(effort('claude-sonnet-5-5', 'extreme'))).toMatchObject({
    status: 400,
    body: invalid(/output_config\.effort: Input should be/),
  });

  const sample = (model: string, params: Record<string, number>) => client.messages.create(decision(model, params as never));
  expect(await refusal(sample('claude-sonnet-5-5', { temperature: 0.2 }))).toEqual({
    status: 400,
    body: invalid('`temperature` is deprecated for this model.'),
  });
  expect(await refusal(sample('claude-opus-5-5', { top_k: 5 }))).toMatchObject({ status: 400 });
  expect((await sample('claude-sonnet-5-5', { temperature: 1 })).stop_reason).toBe('tool_use');
  expect(await refusal(sample('claude-haiku-5-5', { temperature: 1, top_p: 0.99 }))).toMatchObject({ status: 400 });
  expect(await refusal(sample('claude-haiku-4-5', { temperature: 0.5, top_p: 0.9 }))).toMatchObject({ status: 400 });
  expect((await sample('claude-sonnet-4-6', { temperature: 0.2 })).stop_reason).toBe('tool_use');

  const prefill = (model: string) =>
    client.messages.create({
      model,
      max_tokens: 200,
      messages: [
        { role: 'user', content: 'Summarise as FOUND/GAPS/NEXT.' },
        { role: 'assistant', content: 'FOUND:' },
      ],
    });
  for (const model of ['claude-sonnet-5-5', 'claude-haiku-5-5', 'claude-sonnet-4-6'])
    expect(await refusal(prefill(model)), model).toEqual({ status: 400, body: invalid(RULE_MESSAGES.prefill) });
  expect((await prefill('claude-haiku-4-5')).stop_reason).toBe('end_turn');
});

test('an unknown model is a 404 and a wrong key a 401, in the API error envelope', async () => {
  expect(await refusal(client.messages.create(decision('claude-sonnet-9')))).toEqual({
    status: 404,
    body: { type: 'error', error: { type: 'not_found_error', message: 'model: claude-sonnet-9' }, request_id: expect.stringMatching(/^req_/) },
  });
  const stranger = new Anthropic({ apiKey: 'another-key', baseURL: server.url, maxRetries: 0 });
  expect(await refusal(stranger.messages.create(decision('claude-sonnet-5-5')))).toMatchObject({
    status: 401,
    body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
  });
});

test('the current models answer with a signed thinking block before each tool_use, counted in output_tokens', async () => {
  const answer = await client.messages.create(decision('claude-sonnet-5-5'));
  expect(answer.content.map(b => b.type)).toEqual(['thinking', 'tool_use', 'thinking', 'tool_use']);
  const thinking = answer.content.filter((b): b is Anthropic.ThinkingBlock => b.type === 'thinking');
  // display "omitted" is the current models' default: the text is empty, the signature carries the reasoning.
  expect(thinking.every(b => b.thinking === '' && b.signature.length > 20)).toBe(true);
  const perBlock = THINKING_TOKENS_PER_BLOCK.high;
  expect(answer.usage.output_tokens_details).toEqual({ thinking_tokens: 2 * perBlock });
  expect(answer.usage.output_tokens).toBeGreaterThan(2 * perBlock);
  // At the lower effort, less thinking; Opus 5.5's default effort is medium.
  const low = await client.messages.create(decision('claude-sonnet-5-5', { output_config: { effort: 'low' } }));
  expect(low.usage.output_tokens_details?.thinking_tokens).toBe(2 * THINKING_TOKENS_PER_BLOCK.low);
  expect((await client.messages.create(decision('claude-opus-5-5'))).usage.output_tokens_details?.thinking_tokens).toBe(
    2 * THINKING_TOKENS_PER_BLOCK.medium,
  );
  // Summarized display: the text of the thinking is there.
  const summarized = await client.messages.create(decision('claude-sonnet-5-5', { thinking: { type: 'adaptive', display: 'summarized' } }));
  expect((summarized.content[0] as Anthropic.ThinkingBlock).thinking).not.toBe('');
  // A legacy model with thinking off by default answers as it always did.
  expect((await client.messages.create(decision('claude-sonnet-4-6'))).content.map(b => b.type)).toEqual(['tool_use', 'tool_use']);
  // A text answer is preceded by its thinking too.
  const text = await client.messages.create({
    model: 'claude-haiku-5-5',
    max_tokens: 2000,
    messages: [{ role: 'user', content: 'Summarise as FOUND/GAPS/NEXT.' }],
  });
  expect(text.content.map(b => b.type)).toEqual(['thinking', 'text']);
});

test('a max_tokens without room for the thinking stops at max_tokens after a thinking block, before any call; the step waits', async () => {
  const cut = await client.messages.create(decision('claude-sonnet-5-5', { max_tokens: 200 }));
  expect(cut.stop_reason).toBe('max_tokens');
  expect(cut.content.map(b => b.type)).toEqual(['thinking']);
  expect(cut.usage.output_tokens).toBe(200);
  const roomy = await client.messages.create(decision('claude-sonnet-5-5', { max_tokens: 4096 }));
  expect(roomy.content.filter(b => b.type === 'tool_use').map(b => (b as Anthropic.ToolUseBlock).input)).toEqual([{ label: 'a' }, { label: 'b' }]);
});

test('thinking blocks go back unchanged, in an assistant turn: a modified one is the documented 400', async () => {
  const first = await client.messages.create(decision('claude-sonnet-5-5'));
  const calls = first.content.filter((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
  const followUp = (content: Anthropic.ContentBlockParam[]) =>
    client.messages.create(
      decision('claude-sonnet-5-5', {
        messages: [
          { role: 'user', content: PAGE },
          { role: 'assistant', content },
          { role: 'user', content: calls.map(c => ({ type: 'tool_result' as const, tool_use_id: c.id, content: 'ok' })) },
        ],
      }),
    );
  const asAnswered = first.content.map(b =>
    b.type === 'thinking' ? { type: 'thinking' as const, thinking: b.thinking, signature: b.signature } : (b as Anthropic.ToolUseBlock),
  ) as Anthropic.ContentBlockParam[];
  expect((await followUp(asAnswered)).stop_reason).toBe('tool_use');
  const edited = asAnswered.map(b => (b.type === 'thinking' ? { ...b, thinking: 'I changed my mind.' } : b));
  expect(await refusal(followUp(edited))).toEqual({ status: 400, body: invalid(`messages.1.content.0: ${RULE_MESSAGES.modified}`) });
});
