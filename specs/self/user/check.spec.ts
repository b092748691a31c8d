import { expect, test } from '../../../agent/fixture';
import type { Result } from '../../../agent/evidence/result-schema';
import { peopleProfileScript } from '../../../fixtures/model-scripts/people-profile';
import { CHECK_ROUTE } from '../../../agent/cli/check';
import { runBwa } from '../helpers/cli-process';
import { bundledTask, sampleOf, useScriptedModel } from '../helpers/agent-env';

/** `npx bwa check`: one minimal request with the configured key, model and effort, the rules, the cost per 1,000 samples. */

const model = useScriptedModel();

test.beforeAll(async () => {
  model.server.setDefaultScript(CHECK_ROUTE.taskId, { steps: [{ tool: 'ok' }], on_exhausted: 'repeat_last' });
});

const checkEnv = (extra: Record<string, string> = {}) => ({
  ANTHROPIC_API_KEY: 'test-key',
  ANTHROPIC_BASE_URL: model.server.url,
  AGENT_REPORTS_DIR: process.env.AGENT_REPORTS_DIR!,
  ...extra,
});

test('through ANTHROPIC_BASE_URL: the model, the rules applied, and what 1,000 samples of the last run cost at list price', async ({ agent }) => {
  model.server.setScript('people_profile', 'ada', peopleProfileScript('ada'));
  const result: Result = await agent.run(bundledTask('people_profile'), sampleOf({ sample_id: 'ada', username: 'ada' }));
  const { code, stdout, stderr } = await runBwa(['check'], checkEnv());
  expect(code, stderr).toBe(0);
  expect(stdout).toContain('AGENT_MODEL claude-sonnet-5-5');
  expect(stdout).toContain('tool_choice: "auto" — forced tool use is rejected');
  expect(stdout).toContain('output_config.effort "medium" (accepted: low, medium, high, xhigh, max; the model\'s default: high)');
  expect(stdout).toMatch(
    new RegExp(
      `✓ ${model.server.url} accepted the request: claude-sonnet-5-5 answered with thinking, tool_use \\(stop_reason tool_use; output \\d+ tokens, \\d+ of them thinking\\)`,
    ),
  );
  const check = model.server.requests.find(r => r.key.taskId === CHECK_ROUTE.taskId)!;
  expect(check).toMatchObject({ model: 'claude-sonnet-5-5', effort: 'medium', toolChoice: { type: 'auto' } });
  // Sonnet 5.5 prices decisions, Haiku 5.5 the step summaries and tips (none in this run), per million tokens.
  const d = result.usage.by_purpose!.decide!;
  const dollars = (d.input_tokens * 2 + d.cache_creation_input_tokens * 2.5 + d.cache_read_input_tokens * 0.1 + d.output_tokens * 10) / 1e6;
  expect(stdout).toContain(
    `  people_profile: $${(dollars * 1000).toFixed(2)} — ${result.usage.model_calls.toFixed(1)} model calls per sample, over 1 sample(s) of run`,
  );
});

test('a configuration the API refuses: exit 1, with what was refused and the setting to change', async () => {
  const { code, stderr } = await runBwa(['check'], checkEnv({ AGENT_MODEL: 'claude-sonnet-9' }));
  expect(code).toBe(1);
  expect(stderr).toContain(
    `✗ ${model.server.url}: model claude-sonnet-9: the API does not serve this model (404 model: claude-sonnet-9) — set AGENT_MODEL`,
  );
  const bad = await runBwa(['check'], checkEnv({ AGENT_EFFORT: 'extreme' }));
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('AGENT_EFFORT must be low, medium, high, xhigh or max (got "extreme")');
  const legacy = await runBwa(['check'], checkEnv({ AGENT_MODEL: 'claude-sonnet-4-6', AGENT_EFFORT: 'xhigh' }));
  expect(legacy.code).toBe(1);
  expect(legacy.stderr).toContain('AGENT_EFFORT must be one of low, medium, high, max for claude-sonnet-4-6 (got "xhigh")');
});
