import Anthropic from '@anthropic-ai/sdk';
import { expect, test } from '@playwright/test';
import { LOOKBACK_BLOCKS, PromptCache, countInputTokens, minimumCacheableTokens } from '../../../fixtures/model-server/prompt-cache';
import type { MessagesRequest } from '../../../fixtures/model-server/request-schema';
import { estimateTokens } from '../../../fixtures/model-server/tokens';
import { startModelServer } from '../../../fixtures/model-server';
import { routeHeaders } from '../../../agent/decide/request-route';

const EPHEMERAL = { type: 'ephemeral' as const };
const TOOLS = [
  { name: 'click', description: 'Click an element', input_schema: { type: 'object' as const, properties: { target: { type: 'string' } } } },
];
// ~1,100 tokens each: one block alone is over the 1,024-token minimum of Sonnet-class models.
const TASK_RULES = `Task rules. ${'Read every field from the page, never guess. '.repeat(90)}`;
const OTHER_RULES = TASK_RULES.replace('Task rules.', 'Other rules.');

function request(
  opts: { system?: string; sample?: string; page?: string; model?: string; toolChoice?: MessagesRequest['tool_choice'] } = {},
): MessagesRequest {
  return {
    model: opts.model ?? 'claude-sonnet-4-6',
    max_tokens: 100,
    tools: TOOLS,
    tool_choice: opts.toolChoice ?? { type: 'any' },
    system: [
      { type: 'text', text: opts.system ?? TASK_RULES, cache_control: EPHEMERAL },
      { type: 'text', text: `Sample input: ${opts.sample ?? 'ada'}`, cache_control: EPHEMERAL },
    ],
    messages: [{ role: 'user', content: opts.page ?? 'page state of step 1' }],
  };
}

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

test('minimum cacheable lengths are the documented ones of each model', () => {
  expect(minimumCacheableTokens('claude-sonnet-5-5')).toBe(512);
  expect(minimumCacheableTokens('claude-opus-5-5')).toBe(512);
  expect(minimumCacheableTokens('claude-haiku-5-5')).toBe(512);
  expect(minimumCacheableTokens('claude-sonnet-5')).toBe(1024);
  expect(minimumCacheableTokens('claude-sonnet-4-6')).toBe(1024);
  expect(minimumCacheableTokens('claude-haiku-4-5')).toBe(4096);
  expect(minimumCacheableTokens('claude-haiku-4-5-20251001')).toBe(4096);
  expect(LOOKBACK_BLOCKS).toBe(20);
});

test('a stable prefix is written once, then read on every later step; the per-step part stays uncached', () => {
  const cache = new PromptCache();
  const steps = [1, 2, 3, 4].map(step => cache.usage(request({ page: `page state of step ${step}` }), 'ok'));
  const prefix = countInputTokens(request()) - estimateTokens('page state of step 1') - 1;
  expect(steps[0]).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: prefix });
  for (const later of steps.slice(1))
    expect(later).toMatchObject({
      cache_read_input_tokens: prefix,
      cache_creation_input_tokens: 0,
      input_tokens: estimateTokens('page state of step 2') + 1,
    });
});

test('a changed system prompt is a miss: everything from the changed block on is written again', () => {
  const cache = new PromptCache();
  cache.usage(request(), 'ok');
  const changed = cache.usage(request({ system: OTHER_RULES }), 'ok');
  expect(changed.cache_read_input_tokens).toBe(0);
  expect(changed.cache_creation_input_tokens).toBeGreaterThan(estimateTokens(OTHER_RULES));
});

test('another sample of the task reads the task block and writes only its own sample block', () => {
  const cache = new PromptCache();
  const first = cache.usage(request({ sample: 'ada' }), 'ok');
  const second = cache.usage(request({ sample: 'grace' }), 'ok');
  expect(second.cache_read_input_tokens).toBe(first.cache_creation_input_tokens - estimateTokens('Sample input: ada'));
  expect(second.cache_creation_input_tokens).toBe(estimateTokens('Sample input: grace'));
});

test('a prefix under the model minimum is neither written nor read; a one-off minimum overrides the table', () => {
  const haiku = new PromptCache();
  for (let i = 0; i < 2; i++)
    expect(haiku.usage(request({ model: 'claude-haiku-4-5' }), 'ok')).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  const short = request({ system: 'Short rules.' });
  const sonnet = new PromptCache();
  sonnet.usage(short, 'ok');
  expect(sonnet.usage(short, 'ok')).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
  const lowered = new PromptCache({ minimumTokens: 10 });
  lowered.usage(short, 'ok');
  expect(lowered.usage(short, 'ok').cache_read_input_tokens).toBeGreaterThan(0);
});

test('entries live 5 minutes, and every read refreshes them', () => {
  const time = clock();
  const cache = new PromptCache({ now: time.now });
  cache.usage(request(), 'ok');
  time.advance(4 * 60_000 + 59_000);
  expect(cache.usage(request(), 'ok').cache_read_input_tokens).toBeGreaterThan(0);
  time.advance(4 * 60_000 + 59_000);
  expect(cache.usage(request(), 'ok').cache_read_input_tokens, 'the read at 4:59 restarted the 5 minutes').toBeGreaterThan(0);
  time.advance(5 * 60_000 + 1);
  const expired = cache.usage(request(), 'ok');
  expect(expired.cache_read_input_tokens).toBe(0);
  expect(expired.cache_creation_input_tokens).toBeGreaterThan(0);
});

test('a changed tool_choice keeps tools and system cached; only the messages are affected', () => {
  const cache = new PromptCache();
  const first = cache.usage(request(), 'ok');
  const forced = cache.usage(request({ toolChoice: { type: 'tool', name: 'click' } }), 'ok');
  expect(forced.cache_read_input_tokens).toBe(first.cache_creation_input_tokens);
  const changedTools = cache.usage({ ...request(), tools: [{ ...TOOLS[0]!, description: 'Click it' }] }, 'ok');
  expect(changedTools.cache_read_input_tokens, 'tools come first: changing them invalidates everything').toBe(0);
});

test('the 20-block lookback: a breakpoint finds a prefix cached up to 19 blocks before it, not further', () => {
  const blocks = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'text' as const, text: `history line ${i} ${'x'.repeat(40)}` }));
  const conversation = (n: number): MessagesRequest => ({
    ...request(),
    system: 'Rules.',
    messages: [{ role: 'user', content: blocks(n).map((b, i, all) => (i === all.length - 1 ? { ...b, cache_control: EPHEMERAL } : b)) }],
  });
  const cache = new PromptCache({ minimumTokens: 1 });
  cache.usage(conversation(5), 'ok');
  const near = cache.usage(conversation(5 + LOOKBACK_BLOCKS - 1), 'ok');
  expect(near.cache_read_input_tokens).toBe(countInputTokens(conversation(5)));
  const far = new PromptCache({ minimumTokens: 1 });
  far.usage(conversation(5), 'ok');
  expect(far.usage(conversation(5 + LOOKBACK_BLOCKS), 'ok').cache_read_input_tokens).toBe(0);
});

test('the server reports cache usage like the API and refuses more than 4 breakpoints', async () => {
  const server = await startModelServer();
  try {
    const client = new Anthropic({ apiKey: 'k', baseURL: server.url, maxRetries: 0, defaultHeaders: routeHeaders({ taskId: 't', sampleId: 's' }) });
    server.setDefaultScript('t', { steps: [{ tool: 'click', args: { target: 'e1' } }], on_exhausted: 'repeat_last' });
    const body = (page: string) => request({ page }) as Anthropic.MessageCreateParamsNonStreaming;
    const first = await client.messages.create(body('step one'));
    const second = await client.messages.create(body('step two'));
    expect(first.usage).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: expect.any(Number) });
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens);
    const five = {
      ...body('x'),
      cache_control: EPHEMERAL,
      messages: [
        {
          role: 'user' as const,
          content: [
            { type: 'text' as const, text: 'a', cache_control: EPHEMERAL },
            { type: 'text' as const, text: 'b', cache_control: EPHEMERAL },
          ],
        },
      ],
    };
    const refused = await client.messages.create(five).catch((error: unknown) => error);
    expect((refused as InstanceType<typeof Anthropic.APIError>).status).toBe(400);
    expect(String((refused as Error).message)).toContain('A maximum of 4 blocks with cache_control may be provided. Found 5.');
  } finally {
    await server.close();
  }
});
