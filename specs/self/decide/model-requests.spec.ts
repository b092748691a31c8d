import { expect, test } from '../../../agent/fixture';
import { DEFAULT_FAST_MODEL, DEFAULT_MODEL, MODELS, capabilitiesOf, lookupModel } from '../../../agent/decide/model-capabilities';
import { listPrice } from '../../../agent/decide/model-cost';
import { modelSettings, unknownModelWarning } from '../../../agent/decide/model-settings';
import { shapeRequest, THINKING_ROOM } from '../../../agent/decide/request-shape';
import { MODEL_RULES } from '../../../fixtures/model-server';
import { peopleProfileScript } from '../../../fixtures/model-scripts/people-profile';
import { bundledTask, readRunFile, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { withEnv } from '../helpers/env';

/** How requests follow each model's rules: the capability table, request shaping, and runs against the rule-enforcing server. */

test.describe('the capability table', () => {
  test('the current Sonnet is the default, the cheapest current model the fast one; every entry names its prices, the day and the page', () => {
    expect(DEFAULT_MODEL).toBe('claude-sonnet-5-5');
    const current = MODELS.filter(m => m.status === 'current');
    const cheapest = current.reduce((a, b) => (a.prices!.standard.input <= b.prices!.standard.input ? a : b));
    expect(DEFAULT_FAST_MODEL).toBe(cheapest.id);
    for (const id of ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-haiku-5-5', 'claude-haiku-4-5', 'claude-sonnet-4-6', 'claude-sonnet-5'])
      expect(lookupModel(id).known, id).toBe(true);
    for (const model of MODELS) {
      expect(model.prices!.recordedOn, model.id).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(model.prices!.source, model.id).toMatch(/^https:\/\/platform\.claude\.com\/docs\//);
    }
    expect(lookupModel('claude-haiku-4-5-20251001').model.id).toBe('claude-haiku-4-5');
  });

  test('the table agrees with the server’s own transcription of the docs on every rule both hold', () => {
    for (const model of MODELS) {
      const rules = MODEL_RULES[model.id] ?? MODEL_RULES[model.aliases?.[0] ?? ''];
      expect(rules, `${model.id}: served by the scripted server`).toBeDefined();
      expect(rules!.forcedToolChoice !== false, `${model.id} forced tool choice`).toBe(model.forcedToolChoice);
      expect(rules!.thinkingWhenOmitted, `${model.id} thinking when omitted`).toBe(model.thinking.whenOmitted);
      expect(rules!.effort?.levels, `${model.id} effort levels`).toEqual(model.effort?.levels);
      expect(rules!.effort?.default, `${model.id} default effort`).toBe(model.effort?.default);
      expect(rules!.minCacheableTokens, `${model.id} minimum cacheable prompt`).toBe(model.minCacheablePrompt);
    }
  });

  test("Haiku 5.5's long-prompt tier applies to every token of a request over 100K prompt tokens", () => {
    const short = { calls: 1, input: 50_000, cacheWrite: 0, cacheRead: 40_000, output: 1_000 };
    expect(listPrice('claude-haiku-5-5', short)).toBeCloseTo((50_000 * 0.1 + 40_000 * 0.01 + 1_000 * 0.5) / 1e6, 10);
    const long = { ...short, cacheRead: 60_000 };
    expect(listPrice('claude-haiku-5-5', long)).toBeCloseTo((50_000 * 0.5 + 60_000 * 0.05 + 1_000 * 2.5) / 1e6, 10);
    expect(listPrice('claude-sonnet-5-5', short)).toBeCloseTo((50_000 * 2 + 40_000 * 0.1 + 1_000 * 10) / 1e6, 10);
    expect(listPrice('claude-unknown-1', short)).toBeUndefined();
  });
});

test.describe('request shaping', () => {
  const wish = { effort: 'medium' as const, effortToUnknown: false, answerTokens: 2048 };
  const ask = { tools: [], tool_choice: { type: 'any' as const }, messages: [{ role: 'user' as const, content: 'x' }] };

  test('forced tool choice only where accepted; effort only at a level the model takes; room for thinking only where it thinks', () => {
    expect(shapeRequest('claude-sonnet-5-5', ask, wish)).toMatchObject({
      tool_choice: { type: 'auto' },
      output_config: { effort: 'medium' },
      max_tokens: 2048 + THINKING_ROOM.medium,
    });
    expect(shapeRequest('claude-sonnet-4-6', ask, wish)).toMatchObject({
      tool_choice: { type: 'any' },
      output_config: { effort: 'medium' },
      max_tokens: 2048,
    });
    const haiku45 = shapeRequest('claude-haiku-4-5', ask, wish);
    expect(haiku45.output_config).toBeUndefined();
    expect(haiku45.max_tokens).toBe(2048);
    // xhigh is not a Sonnet 4.6 level: a fallback on it gets its own default instead.
    expect(shapeRequest('claude-sonnet-4-6', ask, { ...wish, effort: 'xhigh' }).output_config).toBeUndefined();
    // A model bwa does not know: the strictest rules, and no effort unless AGENT_EFFORT was set by hand.
    const unknown = shapeRequest('claude-opus-4-8', ask, wish);
    expect(unknown).toMatchObject({ tool_choice: { type: 'auto' }, max_tokens: 2048 + THINKING_ROOM.high });
    expect(unknown.output_config).toBeUndefined();
    expect(shapeRequest('claude-opus-4-8', ask, { ...wish, effortToUnknown: true }).output_config).toEqual({ effort: 'medium' });
    for (const body of [shapeRequest('claude-sonnet-5-5', ask, wish), unknown])
      for (const field of ['thinking', 'temperature', 'top_p', 'top_k']) expect(body, field).not.toHaveProperty(field);
  });

  test('AGENT_EFFORT is checked against the levels AGENT_MODEL takes, and the message names the variable and the values', () => {
    const env = (vars: Record<string, string>) => vars as NodeJS.ProcessEnv;
    expect(modelSettings(env({})).effort).toBe('medium');
    expect(modelSettings(env({ AGENT_EFFORT: 'HIGH' })).effort).toBe('high');
    expect(() => modelSettings(env({ AGENT_EFFORT: 'hgh' }))).toThrow('AGENT_EFFORT must be low, medium, high, xhigh or max (got "hgh")');
    expect(() => modelSettings(env({ AGENT_MODEL: 'claude-sonnet-4-6', AGENT_EFFORT: 'xhigh' }))).toThrow(
      'AGENT_EFFORT must be one of low, medium, high, max for claude-sonnet-4-6 (got "xhigh")',
    );
    expect(() => modelSettings(env({ AGENT_MODEL: 'claude-haiku-4-5', AGENT_EFFORT: 'low' }))).toThrow(
      'AGENT_EFFORT: claude-haiku-4-5 takes no effort level (output_config.effort is not accepted) — unset AGENT_EFFORT',
    );
    // The context window is the model's unless set by hand.
    expect(modelSettings(env({})).contextWindow).toBe(capabilitiesOf('claude-sonnet-5-5').contextWindow);
    expect(modelSettings(env({ AGENT_MODEL: 'claude-haiku-4-5' })).contextWindow).toBe(200_000);
  });

  test('an id bwa does not know is one warning line, never an error', () => {
    expect(unknownModelWarning(modelSettings({} as NodeJS.ProcessEnv))).toBeUndefined();
    const warning = unknownModelWarning(
      modelSettings({ AGENT_MODEL: 'claude-opus-4-8', AGENT_FALLBACK_MODEL: 'my-gateway-alias' } as NodeJS.ProcessEnv),
    );
    expect(warning).toBe(
      "bwa: ⚠ AGENT_MODEL=claude-opus-4-8, AGENT_FALLBACK_MODEL=my-gateway-alias not in bwa's model table (agent/decide/model-capabilities.ts): its requests follow the strictest rules — no forced tool choice, no sampling parameters, thinking and effort left to the model, a 200K context window — and no cost can be estimated",
    );
    expect(warning!.split('\n')).toHaveLength(1);
  });
});

test.describe('runs against the rule-enforcing server', () => {
  const model = useScriptedModel({}, { resetEachTest: true });

  const run = (agent: { run: Function }, id: string) => agent.run(bundledTask('people_profile'), sampleOf({ sample_id: id, username: 'ada' }));
  const turns = (id: string) => model.server.requests.filter(r => r.kind === 'decider' && r.key.sampleId === id);

  test('the default model: thinking blocks never break parsing, their tokens count as output, and nothing of them reaches a later prompt', async ({
    agent,
  }) => {
    const script = peopleProfileScript('ada', { oneCallPerTurn: true });
    const steps = script.steps as Array<Record<string, unknown>>;
    steps[1] = { ...steps[1], fault: { kind: 'redacted_thinking' } };
    model.server.setScript('people_profile', 'ada-thinks', script);
    const result = await run(agent, 'ada-thinks');
    expect(model.server.errors).toEqual([]);
    expect(result.status).toBe('done');
    const sent = turns('ada-thinks');
    expect(sent.every(r => r.model === 'claude-sonnet-5-5' && r.response.status === 200)).toBe(true);
    expect(sent[1]!.response.faults).toBe('redacted_thinking');
    const thinking = sent.reduce((n, r) => n + (r.response.thinkingTokens ?? 0), 0);
    expect(thinking).toBeGreaterThan(0);
    expect(result.usage.by_purpose?.decide?.thinking_tokens).toBe(thinking);
    expect(result.usage.by_purpose?.decide?.output_tokens).toBe(sent.reduce((n, r) => n + r.response.usage!.output_tokens, 0));
    // The step summary after step 10 (on the fast model) thinks too: the total holds both.
    const all = model.server.requests.filter(r => r.key.sampleId === 'ada-thinks');
    expect(result.usage.thinking_tokens).toBe(all.reduce((n, r) => n + (r.response.thinkingTokens ?? 0), 0));
    expect(sent.some(r => /redacted_thinking|"signature"|"thinking":/.test(r.lastUserText))).toBe(false);
  });

  test('a turn that ends at max_tokens in its thinking is asked again once with twice the room, noted in the action log and counted', async ({
    agent,
  }) => {
    const script = peopleProfileScript('ada', { oneCallPerTurn: true });
    const steps = script.steps as Array<Record<string, unknown>>;
    steps[1] = { ...steps[1], fault: { kind: 'thinking_only' } };
    model.server.setScript('people_profile', 'ada-cut', script);
    const result = await run(agent, 'ada-cut');
    expect(model.server.errors).toEqual([]);
    expect(result.status).toBe('done');
    const sent = turns('ada-cut');
    const [cut, retried] = sent.filter(r => r.turn === 2);
    expect(cut!.response.stopReason).toBe('max_tokens');
    expect(retried!.maxTokens).toBe(2 * cut!.maxTokens!);
    expect(retried!.lastUserText).toBe(cut!.lastUserText);
    expect(result.usage.by_purpose?.decide?.calls).toBe(sent.length);
    const log = JSON.parse(readRunFile('people_profile', 'ada-cut', 'action_log.json')) as Array<{ step: number; model_note?: string }>;
    expect(log.find(e => e.model_note)?.model_note).toBe(
      `the answer ended at max_tokens (${cut!.maxTokens}) before any tool call: asked again with ${retried!.maxTokens}`,
    );
  });

  test('a legacy model still runs: claude-sonnet-4-6 takes a forced tool choice and answers without thinking', async ({ agent }) => {
    await withEnv({ AGENT_MODEL: 'claude-sonnet-4-6' }, async () => {
      model.server.setScript('people_profile', 'ada-legacy', peopleProfileScript('ada'));
      const result = await run(agent, 'ada-legacy');
      expect(model.server.errors).toEqual([]);
      expect(result.status).toBe('done');
      const sent = turns('ada-legacy');
      expect(sent.every(r => r.model === 'claude-sonnet-4-6' && (r.toolChoice as { type: string }).type === 'any' && r.effort === 'medium')).toBe(
        true,
      );
      expect(sent.every(r => !r.response.thinkingTokens && r.maxTokens === 2048)).toBe(true);
      expect(result.usage.thinking_tokens).toBeUndefined();
    });
  });

  test('a model the table does not hold runs on the strictest rules', async ({ agent }) => {
    await withEnv({ AGENT_MODEL: 'claude-opus-4-8' }, async () => {
      model.server.setScript('people_profile', 'ada-unknown', peopleProfileScript('ada'));
      const result = await run(agent, 'ada-unknown');
      expect(model.server.errors).toEqual([]);
      expect(result.status).toBe('done');
      const sent = turns('ada-unknown');
      expect(sent.every(r => (r.toolChoice as { type: string }).type === 'auto' && r.effort === undefined && r.thinking === undefined)).toBe(true);
    });
  });
});
