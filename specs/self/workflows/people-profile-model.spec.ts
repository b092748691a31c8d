import { expect, test } from '../../../agent/fixture';
import { parse } from 'csv-parse/sync';
import { peopleProfileScript } from '../../../fixtures/model-scripts/people-profile';
import type { PersonTruth } from '../../../fixtures/sites/people/truth';
import { combinedCsv } from '../../../agent/report/csv';
import { bundledTask, readRunFile, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { BREAK_HEADER } from '../../../fixtures/lib/break-switch';
import { COMPANY_HIDDEN_BREAK } from '../../../fixtures/sites/people/site';
import { SITE } from '../helpers/sites';

const model = useScriptedModel({}, { resetEachTest: true });
let truth: Record<string, PersonTruth>;

test.beforeAll(async ({ request }) => {
  truth = (await (await request.get(`${SITE.people}/__truth.json`)).json()).people;
});

const task = () => bundledTask('people_profile');

test("Claude path: every profile field matches the site truth and was read from the DOM — but barbara's company, which her profile does not show: the model states it null", async ({
  agent,
}) => {
  const results = [];
  for (const id of ['ada', 'barbara']) {
    model.server.setScript('people_profile', id, peopleProfileScript(id));
    results.push(await agent.run(task(), sampleOf({ sample_id: id, username: id })));
  }
  expect(model.server.errors).toEqual([]);
  const rows = parse(combinedCsv(results), { columns: true }) as Array<Record<string, string>>;
  for (const row of rows) {
    const person = truth[row.sample_id!]!;
    expect(row).toMatchObject({
      status: 'done',
      display_name: person.display_name,
      bio: person.bio,
      company: person.company ?? '',
      location: person.location,
      followers: String(person.followers),
      pinned: JSON.stringify(person.pinned),
    });
  }
  for (const result of results) {
    for (const field of ['display_name', 'bio', 'company', 'location', 'followers', 'pinned']) {
      const stated = result.sample_id === 'barbara' && field === 'company';
      const expected = stated ? { source: 'model' } : { source: 'dom', url: `${SITE.people}/people/${result.sample_id}` };
      expect(result.extracted[field]!.provenance, `${result.sample_id}.${field}`).toMatchObject(expected);
    }
  }
  expect(results[1]!.extracted.company!.value, 'stated, passed through').toBeNull();
  const ada = results[0]!;
  expect(ada.decider).toBe('model');
  expect(ada.artifacts.map(a => a.filename)).toEqual(['01_profile.png']);
  const deciderTurns = model.server.requests.filter(r => r.kind === 'decider' && r.key.sampleId === 'ada');
  expect(ada.usage.by_purpose?.decide?.calls).toBe(deciderTurns.length);
  expect(ada.usage.model_calls).toBe(model.server.requests.filter(r => r.key.sampleId === 'ada' && r.response.status === 200).length);
  expect(ada.usage.input_tokens + ada.usage.cache_read_input_tokens + ada.usage.cache_creation_input_tokens).toBeGreaterThan(0);
  // One decision per turn; a turn of several independent calls (screenshot and the reads of the profile) logs each as a sub-step.
  const modelEntries = (
    JSON.parse(readRunFile('people_profile', 'ada', 'action_log.json')) as Array<{
      decider: string;
      step: number;
      sub_step?: number;
      action: { name: string };
    }>
  ).filter(e => e.decider === 'model');
  expect(new Set(modelEntries.map(e => e.step)).size).toBe(deciderTurns.length);
  expect(modelEntries.filter(e => e.step === 2).map(e => `${e.sub_step} ${e.action.name}`)).toEqual(['1 screenshot', '2 extract', '3 extract']);
});

test('request shape on the default model: cached task block, cached sample block, tools from the registry, tool_choice auto with effort medium, budget line', async ({
  agent,
}) => {
  model.server.setScript('people_profile', 'grace', peopleProfileScript('grace'));
  await agent.run(task(), sampleOf({ sample_id: 'grace', username: 'grace' }));
  const turns = model.server.requests.filter(r => r.kind === 'decider');
  expect(turns.length).toBeGreaterThanOrEqual(4);
  const [first, second] = turns;
  expect(first!.system[0]!.cache_control).toEqual({ type: 'ephemeral' });
  expect(first!.system[1]!.cache_control).toEqual({ type: 'ephemeral' });
  expect(first!.system[1]!.text).toContain('- username: grace');
  expect(first!.key, 'routed by headers').toEqual({ taskId: 'people_profile', sampleId: 'grace', attempt: '0' });
  expect(turns.every(t => JSON.stringify(t.system) === JSON.stringify(first!.system))).toBe(true);
  // The current Sonnet refuses forced tool use: the prompt asks for a tool call, and effort is sent where it belongs.
  expect(first!.model).toBe('claude-sonnet-5-5');
  expect(first!.toolChoice).toEqual({ type: 'auto', disable_parallel_tool_use: false });
  expect(first!.effort).toBe('medium');
  expect(first!.thinking, 'thinking is left to the model').toBeUndefined();
  // Room for the answer (AGENT_MAX_TOKENS, 2048) and for the thinking that counts towards max_tokens at medium effort.
  expect(first!.maxTokens).toBe(2048 + 4096);
  expect(first!.system[0]!.text).toContain('- Each turn, call the tool for the best next action');
  // Independent calls on one page state may share a turn: the system prompt says how many.
  expect(first!.system[0]!.text).toContain('or up to 3 for independent actions on the page state you see');
  expect(first!.tools).toEqual(expect.arrayContaining(['goto', 'click', 'type', 'extract', 'screenshot', 'save_progress', 'done', 'fail']));
  expect(first!.lastUserText).toContain('Step 2 of 15 — 13 remaining');
  expect(first!.lastUserText).toMatch(/<page_state>\n[\s\S]*\[e\d+\] heading "Grace Hopper/);
  expect(second!.lastUserText).toContain('Step 3 of 15 — 12 remaining');
  // The history keeps every argument, one the outcome already quotes (here the label) too.
  expect(second!.lastUserText).toContain('Step 2: screenshot(label="profile") → Screenshot saved: 01_profile.png');
  // The static block is served from the prompt cache after the first turn.
  expect(second!.response.usage?.cache_read_input_tokens ?? 0).toBeGreaterThan(0);
});

test('done without a required field is sent back with what is missing, then completes', async ({ agent }) => {
  const person = truth.linus!;
  const script = peopleProfileScript('linus');
  const steps = script.steps as unknown[];
  // Call done too early (before the turn that reads followers), then do the rest.
  steps.splice(2, 0, { tool: 'done', args: { extracted: {} } });
  model.server.setScript('people_profile', 'linus', script);
  const result = await agent.run(task(), sampleOf({ sample_id: 'linus', username: 'linus' }));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  expect(result.extracted.followers!.value).toBe(person.followers);
  const bounced = model.server.requests.filter(r => r.kind === 'decider').find(r => r.lastUserText.includes('You called done but'));
  expect(bounced?.lastUserText).toContain('required fields missing: followers');
});

test('judgment mode: an invalid judgment is bounced; a valid one lands in result.json', async ({ agent }) => {
  const judgmentTask = bundledTask('people_profile', {
    task_id: 'people_judgment',
    judgment_required: true,
    judgment_question: 'Is this person widely followed (over 1,000 followers)?',
    judgment_output_schema: { answer: 'yes | no | inconclusive', confidence: '0.0-1.0', reasoning: 'string', evidence_refs: 'array' },
  });
  const script = peopleProfileScript('ada', {
    judgments: [
      { answer: 'maybe', confidence: 2, reasoning: 'x', evidence_refs: [] },
      { answer: 'yes', confidence: 0.9, reasoning: '1,234 followers is over 1,000', evidence_refs: ['01_profile.png'] },
    ],
  });
  model.server.setScript('people_judgment', 'ada', script);
  const result = await agent.run(judgmentTask, sampleOf({ sample_id: 'ada', username: 'ada' }));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  expect(result.judgment).toEqual({ answer: 'yes', confidence: 0.9, reasoning: '1,234 followers is over 1,000', evidence_refs: ['01_profile.png'] });
  const bounce = model.server.requests.find(r => r.lastUserText.includes('You called done but'));
  expect(bounce?.lastUserText).toMatch(
    /judgment\.answer must be one of yes \/ no \/ inconclusive; judgment\.confidence must be a number in 0\.0-1\.0/,
  );
});

test.describe('break one thing', () => {
  test.use({ extraHTTPHeaders: { [BREAK_HEADER]: COMPANY_HIDDEN_BREAK } });

  test('profiles show no company — the model reads the one detail as the location and reports the company null, where the truth has one', async ({
    agent,
  }) => {
    // A sample id of its own: the run skips a sample it has already seen done.
    const [id, login] = ['ada-company-hidden', 'ada'];
    expect(truth[login]!.company).not.toBeNull();
    model.server.setScript('people_profile', id, peopleProfileScript(login));
    const result = await agent.run(task(), sampleOf({ sample_id: id, username: login }));
    expect(model.server.errors).toEqual([]);
    expect(result.status).toBe('done');
    expect(result.extracted.company!.value).toBeNull();
    expect(result.extracted.location).toMatchObject({ value: truth[login]!.location, provenance: { source: 'dom' } });
  });
});
