import Anthropic from '@anthropic-ai/sdk';
import { expect, test } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROUTE_HEADERS, routeHeaders } from '../../../agent/decide/request-route';
import { type ModelServer, estimateTokens, loadScriptFile, parsePageState, startModelServer } from '../../../fixtures/model-server/index';
import type { PromptView } from '../../../fixtures/model-server/script-schema';
import { tempDir } from '../helpers/temp';

// Shapes the agent's own tool definitions take: reflection fields plus each action's arguments.
const reflection = { evaluation_previous_step: { type: 'string' }, memory_update: { type: 'string' }, next_goal: { type: 'string' } };
const tool = (name: string, properties: Record<string, unknown>, required: string[] = []) => ({
  name,
  description: `The ${name} action`,
  input_schema: { type: 'object' as const, properties: { ...reflection, ...properties }, required, additionalProperties: false },
});
const TOOLS = [
  tool('click', { target: { type: 'string' } }, ['target']),
  tool('type', { target: { type: 'string' }, text: { type: 'string' } }, ['target', 'text']),
  tool(
    'extract',
    { target: { type: 'string' }, field: { type: 'string' }, pattern: { type: 'string' }, type: { type: 'string', enum: ['string', 'number'] } },
    ['target', 'field'],
  ),
  tool('screenshot', { label: { type: 'string' } }, ['label']),
  tool('done', { extracted: { type: 'object' } }),
  tool('fail', { reason: { type: 'string' } }, ['reason']),
];

const PAGE = [
  '<page_state>',
  'URL: http://127.0.0.1:4101/users/torvalds',
  '[e1] heading "Linus Torvalds" [level=1]',
  '  [e12] link "linux" → /torvalds/linux',
  '  [e13] link "Next" → /page/2',
  '  [e14] link "Next steps" → /docs/next',
  '  text "1,234 followers · 12 following"',
  '  [f1e3] button "Submit \\"now\\"" (in iframe e17)',
  '  [e18] textbox "Search" value="hello" (required)',
  '</page_state>',
].join('\n');

// Long enough to be cacheable: the server keeps the API's minimum of 1,024 tokens for a prefix.
const SYSTEM_TEXT = `You are a browser agent. ${'Follow the rules carefully. '.repeat(150)}`;

const SYSTEM: Anthropic.TextBlockParam[] = [{ type: 'text', text: SYSTEM_TEXT, cache_control: { type: 'ephemeral' } }];

/** A client whose requests name task "profile", sample "s1", the way the agent's client names them (headers). */
function routedClient(baseURL: string, options: { maxRetries?: number; timeout?: number } = {}): Anthropic {
  return new Anthropic({
    apiKey: 'test-key',
    baseURL,
    maxRetries: 2,
    ...options,
    defaultHeaders: routeHeaders({ taskId: 'profile', sampleId: 's1' }),
  });
}

function decide(client: Anthropic, opts: { task?: string; sample?: string; page?: string; model?: string; attempt?: number; serial?: boolean } = {}) {
  return client.messages.create(
    {
      model: opts.model ?? 'claude-sonnet-4-6',
      max_tokens: 1024,
      system: SYSTEM,
      tools: TOOLS,
      tool_choice: opts.serial ? { type: 'any', disable_parallel_tool_use: true } : { type: 'any' },
      messages: [{ role: 'user', content: `Decide the next action.\n${opts.page ?? PAGE}` }],
    },
    { headers: routeHeaders({ taskId: opts.task ?? 'profile', sampleId: opts.sample ?? 's1', attempt: opts.attempt }) },
  );
}

type APIError = InstanceType<typeof Anthropic.APIError>;

/** SDK 1.x puts the whole JSON body in `message`; the API's own message is `apiMessage`. */
function apiMessageOf(error: unknown): string {
  return (error as APIError).apiMessage ?? String(error);
}

/** The API message of the error a call ends with (fails the test if the call succeeds). */
async function failureOf(call: Promise<unknown>): Promise<string> {
  const outcome = await call.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome, 'the call should have failed').toBeInstanceOf(Anthropic.APIError);
  return apiMessageOf(outcome);
}

function toolUses(message: Anthropic.Message) {
  return message.content.flatMap(block => (block.type === 'tool_use' ? [{ name: block.name, input: block.input as Record<string, unknown> }] : []));
}

let server: ModelServer;
let client: Anthropic;

test.beforeAll(async () => {
  server = await startModelServer();
});
test.afterAll(async () => {
  await server.close();
});
test.beforeEach(() => {
  server.reset();
  client = routedClient(server.url);
});

test.describe('page state parsing', () => {
  test('reads refs, roles, escaped names, values and ref-less text lines', () => {
    const lines = parsePageState(`Some instructions first.\n${PAGE}\nAfter the state.`);
    expect(lines.map(l => l.raw)).not.toContain('After the state.');
    expect(lines.find(l => l.ref === 'e12')).toMatchObject({ role: 'link', name: 'linux', rest: '→ /torvalds/linux', indent: 2 });
    expect(lines.find(l => l.ref === 'f1e3')).toMatchObject({ role: 'button', name: 'Submit "now"', rest: '(in iframe e17)' });
    expect(lines.find(l => l.ref === 'e18')).toMatchObject({ role: 'textbox', name: 'Search', rest: 'value="hello" (required)' });
    const textLine = lines.find(l => l.role === 'text');
    expect(textLine).toMatchObject({ name: '1,234 followers · 12 following', indent: 2 });
    expect(textLine?.ref).toBeUndefined();
    const urlLine = lines.find(l => l.raw.startsWith('URL:'));
    expect([urlLine?.role, urlLine?.name, urlLine?.ref]).toEqual([undefined, undefined, undefined]);
  });

  test('reads names the way the snapshot printer writes them (JSON string escapes)', () => {
    const printed = `[e7] link ${JSON.stringify('Line one\nLine "two" \\ é')} : "more text" → /x`;
    expect(parsePageState(printed)[0]).toMatchObject({ ref: 'e7', role: 'link', name: 'Line one\nLine "two" \\ é', rest: ': "more text" → /x' });
  });

  test('uses the whole text when there are no page_state tags', () => {
    expect(parsePageState('[e5] checkbox "Remember me" [checked]')).toEqual([
      { lineNo: 1, indent: 0, ref: 'e5', role: 'checkbox', name: 'Remember me', rest: '[checked]', raw: '[e5] checkbox "Remember me" [checked]' },
    ]);
  });
});

test.describe('target resolution', () => {
  test('a scripted click answers the ref shown in the prompt, with reflection fields', async () => {
    server.setScript('profile', 's1', {
      steps: [
        { tool: 'click', target: { role: 'link', name: 'Next' }, reflection: { next_goal: 'open page 2' } },
        { tool: 'click', target: { role: 'link', name: 'next', nth: 1 } },
        { tool: 'click', target: { name: 'LINUX' } },
        { tool: 'click', target: { ref: 'f1e3' } },
      ],
    });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(toolUses(await decide(client))[0]);
    expect(answers.map(a => a?.input.target)).toEqual(['e13', 'e14', 'e12', 'f1e3']);
    expect(answers[0]?.input).toMatchObject({
      next_goal: 'open page 2',
      evaluation_previous_step: expect.any(String),
      memory_update: expect.any(String),
    });
    expect(server.requests.map(r => [r.kind, r.turn])).toEqual([
      ['decider', 1],
      ['decider', 2],
      ['decider', 3],
      ['decider', 4],
    ]);
    expect(server.errors).toEqual([]);
  });

  test('an element missing from the prompt is a 400 naming step and element, and the step waits', async () => {
    server.setScript('profile', 's1', { steps: [{ tool: 'click', target: { role: 'link', name: 'Settings' } }] });
    const error = await decide(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(apiMessageOf(error)).toContain('model-server: step 1 (click link "Settings") — element not found in page state');
    expect(server.errors).toEqual([expect.stringContaining('step 1 (click link "Settings") — element not found in page state')]);
    const withSettings = PAGE.replace('</page_state>', '[e30] link "Settings" → /settings\n</page_state>');
    expect(toolUses(await decide(client, { page: withSettings }))[0]?.input.target).toBe('e30');
  });

  test('a text target answers the ref when the line has one, else the text itself', async () => {
    server.setScript('profile', 's1', {
      steps: [
        { tool: 'extract', target: { text: 'followers' }, args: { field: 'followers', pattern: '([\\d,]+) followers', type: 'number' } },
        { tool: 'click', target: { text: 'torvalds/linux' } },
      ],
    });
    expect(toolUses(await decide(client))[0]?.input).toMatchObject({ target: '1,234 followers · 12 following', field: 'followers', type: 'number' });
    expect(toolUses(await decide(client))[0]?.input.target).toBe('e12');
  });

  test('a refs target answers the refs as one target when every one is in the prompt, else a 400', async () => {
    server.setScript('profile', 's1', {
      steps: [
        { tool: 'extract', target: { refs: ['e13', 'e12'] }, args: { field: 'links' } },
        { tool: 'extract', target: { refs: ['e12', 'e99'] }, args: { field: 'links' } },
      ],
    });
    expect(toolUses(await decide(client))[0]?.input.target).toBe('e13 e12');
    expect(await failureOf(decide(client))).toContain('step 2 (extract refs e12 e99) — element not found in page state');
  });

  test('a batch step answers several tool_use blocks in one message', async () => {
    server.setScript('profile', 's1', {
      steps: [
        {
          batch: [
            { tool: 'type', target: { role: 'textbox', name: 'Search' }, args: { text: 'a@b.c' } },
            { tool: 'click', target: { role: 'button', name: 'submit' } },
          ],
        },
      ],
    });
    const message = await decide(client);
    expect(message.stop_reason).toBe('tool_use');
    expect(toolUses(message)).toEqual([
      { name: 'type', input: expect.objectContaining({ target: 'e18', text: 'a@b.c' }) },
      { name: 'click', input: expect.objectContaining({ target: 'f1e3' }) },
    ]);
  });

  test('a batch asked for without parallel calls is answered one call per request, each resolved in the page state it came with', async () => {
    server.setScript('profile', 's1', {
      steps: [
        {
          batch: [
            { tool: 'type', target: { role: 'textbox', name: 'Search' }, args: { text: 'a@b.c' } },
            { tool: 'click', target: { role: 'button', name: 'submit' } },
          ],
        },
        { tool: 'done', args: { extracted: {} } },
      ],
    });
    expect(toolUses(await decide(client, { serial: true }))).toEqual([
      { name: 'type', input: expect.objectContaining({ target: 'e18', text: 'a@b.c' }) },
    ]);
    // The next page state numbers the button anew: the held call finds it there, not where the first one saw it.
    const renumbered = PAGE.replace('[f1e3] button', '[f2e9] button');
    expect(toolUses(await decide(client, { serial: true, page: renumbered }))).toEqual([
      { name: 'click', input: expect.objectContaining({ target: 'f2e9' }) },
    ]);
    expect(toolUses(await decide(client, { serial: true }))[0]?.name).toBe('done');
    expect(server.requests.map(r => r.turn)).toEqual([1, 2, 3]);
    expect(server.errors).toEqual([]);
  });

  test('a tool the request does not offer, or input that breaks its schema, is a reported error', async () => {
    server.setScript('profile', 's1', { steps: [{ tool: 'hover', target: { ref: 'e12' } }] });
    expect(await failureOf(decide(client))).toMatch(/tool "hover" is not among the tools offered/);
    server.setScript('profile', 's1', { steps: [{ tool: 'screenshot', args: { label: 7 } }] });
    expect(await failureOf(decide(client))).toMatch(/does not fit the tool's input_schema: input.label: expected string, got integer/);
    expect(server.errors).toHaveLength(2);
  });
});

test.describe('faults', () => {
  test('429 with retry-after is absorbed by the SDK retry and the step is not skipped', async () => {
    server.setScript('profile', 's1', {
      steps: [
        { tool: 'screenshot', args: { label: 'profile' }, fault: { kind: '429', retry_after_s: 0.2 } },
        { tool: 'done', args: { extracted: {} } },
      ],
    });
    expect(toolUses(await decide(client))[0]?.name).toBe('screenshot');
    expect(toolUses(await decide(client))[0]?.name).toBe('done');
    const [first, retry, next] = server.requests;
    expect(first).toMatchObject({ turn: 1, response: { status: 429, faults: '429' }, headers: { retryCount: '0', apiKeyPresent: true } });
    expect(retry).toMatchObject({ turn: 1, response: { status: 200 }, headers: { retryCount: '1' } });
    expect(next).toMatchObject({ turn: 2, response: { status: 200 } });
  });

  test('a 429 carries retry-after, the error body shape and a request-id', async () => {
    server.setScript('profile', 's1', { steps: [{ tool: 'screenshot', args: { label: 'x' }, fault: { kind: 429, retry_after_s: 3 } }] });
    const raw = await client.messages
      .create(
        {
          model: 'claude-sonnet-4-6',
          max_tokens: 10,
          system: SYSTEM,
          tools: TOOLS,
          tool_choice: { type: 'any' },
          messages: [{ role: 'user', content: PAGE }],
        },
        { maxRetries: 0 },
      )
      .catch((e: unknown) => e);
    expect(raw).toBeInstanceOf(Anthropic.RateLimitError);
    const error = raw as APIError;
    expect(error.headers?.get('retry-after')).toBe('3');
    expect(error.requestID).toMatch(/^req_/);
    expect(error.error).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  test('529 and 500 are retried until the scripted answer', async () => {
    server.setScript('profile', 's1', {
      steps: [
        { tool: 'screenshot', args: { label: 'a' }, fault: { kind: '529', times: 2, retry_after_ms: 20 } },
        { tool: 'screenshot', args: { label: 'b' }, fault: { kind: '500', retry_after_ms: 20 } },
      ],
    });
    expect(toolUses(await decide(client))[0]?.input.label).toBe('a');
    expect(toolUses(await decide(client))[0]?.input.label).toBe('b');
    expect(server.requests.map(r => r.response.status)).toEqual([529, 529, 200, 500, 200]);
    expect(server.requests.map(r => r.headers.retryCount)).toEqual(['0', '1', '2', '0', '1']);
  });

  test('a reset connection is retried', async () => {
    server.setScript('profile', 's1', { steps: [{ tool: 'screenshot', args: { label: 'a' }, fault: { kind: 'reset' } }] });
    expect(toolUses(await decide(client))[0]?.input.label).toBe('a');
    expect(server.requests.map(r => [r.response.status, r.response.faults])).toEqual([
      [0, 'reset'],
      [200, undefined],
    ]);
  });

  test('a slow answer trips the client timeout; the step stays for the next request', async () => {
    server.setScript('profile', 's1', { steps: [{ tool: 'screenshot', args: { label: 'late' }, fault: { kind: 'slow', delay_ms: 5_000 } }] });
    const impatient = routedClient(server.url, { maxRetries: 0, timeout: 300 });
    await expect(decide(impatient)).rejects.toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    expect(toolUses(await decide(client))[0]?.input.label).toBe('late');
    expect(server.requests.map(r => [r.turn, r.response.status, r.response.faults])).toEqual([
      [1, 0, 'slow'],
      [1, 200, undefined],
    ]);
  });

  test('malformed, text_only and overlong answers come back as they are, then the real step', async () => {
    server.setScript('profile', 's1', {
      steps: [
        { tool: 'click', target: { role: 'link', name: 'Next' }, fault: { kind: 'malformed' } },
        { tool: 'click', target: { role: 'link', name: 'linux' }, fault: { kind: 'text_only' }, text: 'Opening the repository.' },
        { tool: 'screenshot', args: { label: 'cut' }, fault: { kind: 'overlong' } },
      ],
    });
    const malformed = await decide(client);
    expect(toolUses(malformed)[0]).toMatchObject({ name: 'click' });
    expect(toolUses(malformed)[0]?.input).not.toHaveProperty('target');
    expect(toolUses(await decide(client))[0]?.input.target).toBe('e13');
    const textOnly = await decide(client);
    expect(textOnly.stop_reason).toBe('end_turn');
    expect(textOnly.content).toEqual([expect.objectContaining({ type: 'text', text: 'Opening the repository.' })]);
    expect(toolUses(await decide(client))[0]?.input.target).toBe('e12');
    const overlong = await decide(client);
    expect(overlong.stop_reason).toBe('max_tokens');
    expect(overlong.usage.output_tokens).toBe(1024);
    expect(toolUses(overlong)[0]?.input).not.toHaveProperty('label');
    expect(toolUses(await decide(client))[0]?.input.label).toBe('cut');
  });

  test('fault.model hits only that model, so a fallback model gets the step', async () => {
    server.setScript('profile', 's1', {
      steps: [{ tool: 'screenshot', args: { label: 'a' }, fault: { kind: '529', model: 'claude-sonnet-4-6', times: 5, retry_after_ms: 10 } }],
    });
    await expect(decide(client, { model: 'claude-sonnet-4-6' })).rejects.toBeInstanceOf(Anthropic.InternalServerError);
    const answer = await decide(client, { model: 'claude-haiku-4-5' });
    expect(answer.model).toBe('claude-haiku-4-5');
    expect(toolUses(answer)[0]?.input.label).toBe('a');
    expect(server.requests.map(r => [r.model, r.response.status])).toEqual([
      ['claude-sonnet-4-6', 529],
      ['claude-sonnet-4-6', 529],
      ['claude-sonnet-4-6', 529],
      ['claude-haiku-4-5', 200],
    ]);
  });
});

test.describe('usage and caching', () => {
  test('the static system block is written to the cache once, then read', async () => {
    server.setDefaultScript('profile', { steps: [], on_exhausted: 'repeat_last' });
    server.setScript('profile', 's1', { steps: [{ tool: 'screenshot', args: { label: 'a' } }], on_exhausted: 'repeat_last' });
    const first = await decide(client);
    const second = await decide(client, { page: PAGE.replace('linux', 'kernel') });
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(estimateTokens(SYSTEM_TEXT) - 1);
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBe(0);
    expect(second.usage.input_tokens).toBeGreaterThan(0);
    const otherModel = await decide(client, { model: 'claude-sonnet-5' });
    expect(otherModel.usage.cache_read_input_tokens).toBe(0);
  });

  test('count_tokens answers the estimate of the whole prompt', async () => {
    const params = { model: 'claude-sonnet-4-6', system: SYSTEM, tools: TOOLS, messages: [{ role: 'user' as const, content: PAGE }] };
    const counted = await client.messages.countTokens(params);
    expect(counted.input_tokens).toBeGreaterThan(estimateTokens(SYSTEM_TEXT + PAGE));
    expect(server.requests).toEqual([]);
  });
});

test.describe('request validation', () => {
  const base = { model: 'claude-sonnet-4-6', max_tokens: 100, system: SYSTEM, messages: [{ role: 'user' as const, content: 'hi' }] };

  test('shape errors are 400 invalid_request_error naming the field', async () => {
    const { max_tokens: _, ...noMaxTokens } = base;
    const cases: Array<[unknown, RegExp]> = [
      [noMaxTokens, /max_tokens: Field required/],
      [{ ...base, max_tokens: 0 }, /max_tokens: Input should be greater than or equal to 1/],
      [{ ...base, messages: [] }, /messages: List should have at least 1 item/],
      [{ ...base, messages: [{ role: 'assistant', content: 'hi' }] }, /first message must use the "user" role/],
      [
        {
          ...base,
          messages: [
            { role: 'user', content: 'a' },
            { role: 'user', content: 'b' },
          ],
        },
        /roles must alternate/,
      ],
      [{ ...base, messages: [{ role: 'user', content: [{ type: 'txt', text: 'a' }] }] }, /messages.0.content.0.type: Input tag/],
      [{ ...base, tools: [{ name: 'click', input_schema: { type: 'object' } }], tool_choice: { type: 'tool', name: 'nope' } }, /tool_choice.name/],
      [{ ...base, stream: true }, /non-streaming requests only/],
      [{ ...base, temperature: 2 }, /temperature: Input should be less than or equal to 1/],
      [{ ...base, temprature: 0.5 }, /temprature: Extra inputs are not permitted/],
    ];
    for (const [body, expected] of cases) {
      const error = await client.post('/v1/messages', { body }).catch((e: unknown) => e);
      expect(error, String(expected)).toBeInstanceOf(Anthropic.BadRequestError);
      expect((error as APIError).error).toMatchObject({
        type: 'error',
        error: { type: 'invalid_request_error', message: expect.stringMatching(expected) },
      });
    }
    expect(server.errors).toHaveLength(cases.length);
  });

  test('tool_use blocks need their tool_result, and a real multi-turn conversation passes', async () => {
    server.setScript('profile', 's1', {
      steps: [
        { tool: 'click', target: { ref: 'e12' } },
        { tool: 'done', args: { extracted: { name: 'Linus' } } },
      ],
    });
    const first = await decide(client);
    const history: Anthropic.MessageParam[] = [
      { role: 'user', content: PAGE },
      { role: 'assistant', content: first.content },
    ];
    const unanswered = client.messages.create({
      ...base,
      tools: TOOLS,
      tool_choice: { type: 'any' },
      messages: [...history, { role: 'user', content: PAGE }],
    });
    expect(await failureOf(unanswered)).toMatch(/`tool_use` ids were found without `tool_result` blocks/);
    const toolUseId = first.content.find(b => b.type === 'tool_use')?.id ?? '';
    const second = await client.messages.create({
      ...base,
      tools: TOOLS,
      tool_choice: { type: 'any' },
      messages: [...history, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: `clicked\n${PAGE}` }] }],
    });
    expect(toolUses(second)[0]).toEqual({ name: 'done', input: expect.objectContaining({ extracted: { name: 'Linus' } }) });
  });

  test('headers: a key is required, and anthropic-version', async () => {
    server.setScript('profile', 's1', { text: [{ contains: 'hi', answer: 'hello' }] });
    const route = routeHeaders({ taskId: 'profile', sampleId: 's1' });
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...route, ...headers },
        body: JSON.stringify(base),
      });
    expect((await post({ 'anthropic-version': '2023-06-01' })).status).toBe(401);
    const noVersion = await post({ 'x-api-key': 'k' });
    expect(noVersion.status).toBe(400);
    expect(await noVersion.json()).toMatchObject({ error: { message: 'anthropic-version: header is required' } });
    expect((await post({ 'x-api-key': 'k', 'anthropic-version': '2023-06-01' })).status).toBe(200);
  });
});

test.describe('auxiliary requests', () => {
  test('vision and text requests are answered from their rules and never consume a step', async () => {
    server.setScript('profile', 's1', {
      steps: [
        { tool: 'screenshot', args: { label: 'one' } },
        { tool: 'screenshot', args: { label: 'two' } },
      ],
      vision: [{ contains: 'checks', answer: 'build: passed (green check); lint: failed (red x)' }],
      text: [{ contains: 'FOUND', answer: 'FOUND: name\nGAPS: none\nNEXT: done', once: true }],
    });
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    expect(toolUses(await decide(client))[0]?.input.label).toBe('one');
    const vision = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 200,
      system: SYSTEM,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
            { type: 'text', text: 'What do the CI checks show?' },
          ],
        },
      ],
    });
    expect(vision.content).toEqual([expect.objectContaining({ type: 'text', text: 'build: passed (green check); lint: failed (red x)' })]);
    const summary = () =>
      client.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 200,
        system: SYSTEM,
        messages: [{ role: 'user', content: 'Summarise as FOUND/GAPS/NEXT.' }],
      });
    expect((await summary()).content[0]).toMatchObject({ text: expect.stringContaining('FOUND: name') });
    // The once-rule is used up: the same request now matches nothing, and fails.
    expect(await failureOf(summary())).toMatch(
      /no "text" rule matches the request \("Summarise as FOUND\/GAPS\/NEXT\.…"\) \[task profile, sample s1\]/,
    );
    expect(toolUses(await decide(client))[0]?.input.label).toBe('two');
    expect(server.requests.map(r => [r.kind, r.turn, r.hasImage, r.response.status])).toEqual([
      ['decider', 1, false, 200],
      ['vision', undefined, true, 200],
      ['text', undefined, false, 200],
      ['text', undefined, false, 400],
      ['decider', 2, false, 200],
    ]);
    expect(server.errors).toEqual([expect.stringContaining('no "text" rule matches')]);
  });

  test('an auxiliary request nobody scripted fails and is reported; "canned" answers it with a fixed text instead', async () => {
    const ask = (c: Anthropic) =>
      c.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 50, messages: [{ role: 'user', content: 'Write navigation tips.' }] });
    expect(await failureOf(ask(client))).toMatch(/no script answers the text request \("Write navigation tips\.…"\) \[task profile, sample s1\]/);
    const unrouted = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
    expect(await failureOf(ask(unrouted))).toMatch(
      new RegExp(`a text request \\("Write navigation tips\\.…"\\) has no ${ROUTE_HEADERS.task} header`),
    );
    server.setScript('profile', 's1', { text: [{ contains: 'something else', answer: 'x' }] });
    expect(await failureOf(ask(client))).toMatch(/no "text" rule matches/);
    expect(server.errors).toHaveLength(3);
    server.setScript('profile', 's1', { text: [], on_unmatched: 'canned' });
    expect((await ask(client)).content[0]).toMatchObject({ text: expect.stringContaining('no scripted text answer') });
    expect(server.errors).toHaveLength(3);
  });
});

test.describe('scripts', () => {
  test('on_exhausted: error, fail and repeat_last', async () => {
    server.setScript('profile', 'err', { steps: [] });
    expect(await failureOf(decide(client, { sample: 'err' }))).toMatch(/step 1 \(script exhausted after 0 step\(s\)\)/);
    server.setScript('profile', 'fail', { steps: [], on_exhausted: 'fail' });
    expect(toolUses(await decide(client, { sample: 'fail' }))[0]).toMatchObject({
      name: 'fail',
      input: { reason: expect.stringContaining('exhausted') },
    });
    server.setScript('profile', 'rep', { steps: [{ tool: 'click', target: { name: 'linux' } }], on_exhausted: 'repeat_last' });
    await decide(client, { sample: 'rep' });
    expect(toolUses(await decide(client, { sample: 'rep' }))[0]?.input.target).toBe('e12');
  });

  test('scripts load from a folder with the _default fallback; a bad file names file and path', async () => {
    const dir = tempDir('model-scripts-');
    mkdirSync(path.join(dir, 'profile'));
    writeFileSync(path.join(dir, 'profile', 'torvalds.json'), JSON.stringify({ steps: [{ tool: 'screenshot', args: { label: 'own' } }] }));
    writeFileSync(path.join(dir, 'profile', '_default.json'), JSON.stringify({ steps: [{ tool: 'screenshot', args: { label: 'default' } }] }));
    const badFile = path.join(dir, 'profile', 'broken.json');
    writeFileSync(badFile, JSON.stringify({ steps: [{ tool: 'click', fault: { kind: 'teapot' } }] }));
    const fromFiles = await startModelServer({ scriptsDir: dir });
    try {
      const fileClient = routedClient(fromFiles.url, { maxRetries: 0 });
      expect(toolUses(await decide(fileClient, { sample: 'torvalds' }))[0]?.input.label).toBe('own');
      expect(toolUses(await decide(fileClient, { sample: 'someone-else' }))[0]?.input.label).toBe('default');
      expect(await failureOf(decide(fileClient, { sample: 'broken' }))).toMatch(/bad script .*broken\.json: at steps\[0\]\.fault\.kind/);
      expect(fromFiles.errors).toEqual([expect.stringContaining('broken.json: at steps[0].fault.kind')]);
    } finally {
      await fromFiles.close();
    }
    expect(() => loadScriptFile(badFile)).toThrow(/broken\.json: at steps\[0\]\.fault\.kind/);
    expect(() => server.setScript('t', 's', { steps: [{ tool: 'click', targt: { ref: 'e1' } }] } as never)).toThrow(
      /setScript\("t", "s"\): at steps\[0\]/,
    );
  });

  test('requests are routed by their x-bwa-* headers (URL-decoded), never by the prompt', async () => {
    const odd = 'ada lovelace/é:1';
    server.setScript('profile', odd, { steps: [{ tool: 'screenshot', args: { label: 'odd' } }] });
    expect(toolUses(await decide(client, { sample: odd }))[0]?.input.label).toBe('odd');
    expect(server.requests[0]?.key).toEqual({ taskId: 'profile', sampleId: odd });
    expect(server.requests[0]?.system.map(b => b.text).join('\n')).not.toMatch(/task_id|sample_id|attempt:/);
    const body = {
      model: 'claude-sonnet-4-6',
      max_tokens: 10,
      system: SYSTEM,
      tools: TOOLS,
      tool_choice: { type: 'any' as const },
      messages: [{ role: 'user' as const, content: PAGE }],
    };
    const unrouted = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
    expect(await failureOf(unrouted.messages.create(body))).toBe(
      `model-server: the request has no ${ROUTE_HEADERS.task} header, so no script can be chosen`,
    );
    expect(await failureOf(client.messages.create(body, { headers: { [ROUTE_HEADERS.sample]: '%E0%A4%A' }, maxRetries: 0 }))).toMatch(
      /the x-bwa-sample header is not URL-encoded/,
    );
  });

  test('an x-bwa-attempt header replays the script for a retried sample', async () => {
    server.setScript('profile', 's1', {
      steps: [
        { tool: 'screenshot', args: { label: 'first' } },
        { tool: 'screenshot', args: { label: 'second' } },
      ],
    });
    expect(toolUses(await decide(client, { attempt: 0 }))[0]?.input.label).toBe('first');
    expect(toolUses(await decide(client, { attempt: 1 }))[0]?.input.label).toBe('first');
    expect(toolUses(await decide(client, { attempt: 1 }))[0]?.input.label).toBe('second');
    expect(server.requests.map(r => [r.key.attempt, r.turn])).toEqual([
      ['0', 1],
      ['1', 1],
      ['1', 2],
    ]);
  });

  test('GET /__requests and POST /__reset', async () => {
    server.setScript('profile', 's1', { steps: [{ tool: 'screenshot', args: { label: 'a' } }] });
    await decide(client);
    const listed = (await (await fetch(`${server.url}/__requests`)).json()) as Array<{ key: unknown; tools: string[] }>;
    expect(listed).toEqual([expect.objectContaining({ key: { taskId: 'profile', sampleId: 's1' }, tools: TOOLS.map(t => t.name) })]);
    expect(server.requests[0]?.toolInputSchemas.click).toEqual(TOOLS[0]?.input_schema);
    expect(server.requests[0]?.system[0]).toMatchObject({ cache_control: { type: 'ephemeral' } });
    await fetch(`${server.url}/__reset`, { method: 'POST' });
    expect(server.requests).toEqual([]);
    expect(await failureOf(decide(client))).toMatch(/no script for task profile, sample s1/);
  });
});

test.describe('computed steps', () => {
  const pageWith = (lines: string[]) => ['<page_state>', ...lines, '</page_state>'].join('\n');
  const results = (first: string, second: string) =>
    pageWith(['[e1] link "Ann Lee"', `  text "${first}"`, '[e2] link "Ann Lee"', `  text "${second}"`]);
  /** The link printed above the line that names the company, as a model reads a result list. */
  const openAcme = {
    what: 'open the result whose company is Acme',
    decide: ({ page }: PromptView) => {
      const at = page.findIndex(line => line.raw.includes('Acme'));
      const link = page
        .slice(0, Math.max(at, 0))
        .reverse()
        .find(line => line.role === 'link');
      if (at < 0 || !link?.ref) throw new Error('no result shows the company Acme');
      return [
        { tool: 'click', target: { ref: link.ref } },
        { tool: 'screenshot', args: { label: 'planned' } },
      ];
    },
  };

  test('a computed step decides from the page state of the request it answers; a plan answers the next requests first', async () => {
    server.setScript('profile', 's1', { steps: [openAcme, { tool: 'screenshot', args: { label: 'after the plan' } }] });
    expect(toolUses(await decide(client, { page: results('Globex', 'Acme') }))[0]?.input.target).toBe('e2');
    expect(toolUses(await decide(client))[0]?.input.label).toBe('planned');
    expect(toolUses(await decide(client))[0]?.input.label).toBe('after the plan');
    expect(
      server.requests.map(r => r.turn),
      'planned steps are numbered in the order they are answered',
    ).toEqual([1, 2, 3]);
    server.reset();
    server.setScript('profile', 's1', { steps: [openAcme] });
    expect(toolUses(await decide(client, { page: results('Acme', 'Globex') }))[0]?.input.target).toBe('e1');
    server.reset();
    server.setScript('profile', 's1', { steps: [openAcme] });
    expect(await failureOf(decide(client, { page: results('Globex', 'Initech') }))).toMatch(
      /step 1 \(decide: open the result whose company is Acme\) — no result shows the company Acme/,
    );
  });
});
