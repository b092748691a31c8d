import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PLAN_TOOL } from '../../../agent/plan/plan-tool';
import { validatePlan } from '../../../agent/plan/validate-plan';
import { loadSuite } from '../../../agent/task/suite';
import {
  ORG_MEMBERS_REQUEST,
  orgMembersPlan,
  plannerScript,
  TWO_PROFILES_REQUEST,
  twoProfilesPlan,
  withUnknownRequiredField,
} from '../../../fixtures/model-scripts/planner';
import { useScriptedModel } from '../helpers/agent-env';
import { runBwaInProcess } from '../helpers/cli';
import { SITE } from '../helpers/sites';

const model = useScriptedModel({}, { resetEachTest: true });
let tasksDir: string;

test.beforeEach(({}, testInfo) => {
  tasksDir = testInfo.outputPath('tasks');
  fs.mkdirSync(tasksDir);
});

/** `bwa plan …` in this process, writing into this test's tasks folder. */
const plan = (...args: string[]) => runBwaInProcess(['plan', ...args], { AGENT_TASKS_DIR: tasksDir });

const deciderTurns = () => model.server.requests.filter(r => r.kind === 'decider');

test('"every member" becomes a task with a discover block; the schema refuses the first plan and the model fixes it from the error', async () => {
  model.server.setDefaultScript('plan', plannerScript(withUnknownRequiredField(orgMembersPlan()), orgMembersPlan()));
  const { code, printed } = await plan(ORG_MEMBERS_REQUEST);
  expect(model.server.errors).toEqual([]);
  expect(code).toBe(0);

  const [first, second] = deciderTurns();
  // The default model refuses a forced tool: the plan tool is asked for in the prompt. The second request sends the
  // first answer back with its thinking blocks unchanged (the server refuses a modified one).
  expect(first!.toolChoice).toEqual({ type: 'auto' });
  expect(first!.lastUserText).toContain(ORG_MEMBERS_REQUEST);
  expect(first!.tools).toEqual([PLAN_TOOL]);
  const taskSchema = (first!.toolInputSchemas[PLAN_TOOL] as { properties: { task: { properties: Record<string, unknown> } } }).properties.task;
  expect(Object.keys(taskSchema.properties)).toEqual(expect.arrayContaining(['task_id', 'start_url', 'output_schema', 'discover']));
  expect(taskSchema.properties).not.toHaveProperty('recipe');
  expect(second!.lastUserText).toContain('task.required_fields[1]: "follower_count" is not a key of output_schema');
  expect(deciderTurns()).toHaveLength(2);

  const file = path.join(tasksDir, 'acme_member_profiles.json');
  const written = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(written).toMatchObject({
    task_id: 'acme_member_profiles',
    start_url: '{{url}}',
    required_fields: ['name', 'followers'],
    discover: { start_url: `${SITE.people}/orgs/acme/members` },
  });
  expect(written.$schema).toMatch(/task\.schema\.json$/);
  expect(fs.existsSync(path.join(tasksDir, 'inputs', 'acme_member_profiles.csv'))).toBe(false);
  expect(printed).toContain(`Wrote ${file} (the first plan was refused by the schema check and corrected)`);
  expect(printed).toContain('Samples: discovered at run time from http://127.0.0.1:4101/orgs/acme/members');
  expect(printed).toContain('npx playwright test --project=bwa --grep @acme_member_profiles');
  // The suite shows it as a task whose samples come from discovery.
  const [suite] = loadSuite({ tasksDir });
  expect(suite!.missing).toContain('npx bwa discover acme_member_profiles');
});

test('named items become samples: the task and its CSV are written, printed, and never overwritten without --force', async () => {
  model.server.setDefaultScript('plan', plannerScript(twoProfilesPlan(), twoProfilesPlan()));
  const { code, printed } = await plan(TWO_PROFILES_REQUEST);
  expect(code).toBe(0);
  expect(model.server.errors).toEqual([]);
  const csv = path.join(tasksDir, 'inputs', 'people_followers.csv');
  expect(fs.readFileSync(csv, 'utf8')).toBe('sample_id,username\nada,ada\ngrace,grace\n');
  expect(printed).toContain(`Wrote ${csv} (2 sample(s)):`);
  const [suite] = loadSuite({ tasksDir });
  expect(suite!.samples.map(s => s.sample_id)).toEqual(['ada', 'grace']);

  model.server.reset();
  model.server.setDefaultScript('plan', plannerScript(twoProfilesPlan()));
  const refused = await plan(TWO_PROFILES_REQUEST);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/people_followers\.json and .*people_followers\.csv already exist: not overwritten \(use --force/);
  model.server.reset();
  model.server.setDefaultScript('plan', plannerScript(twoProfilesPlan()));
  expect((await plan(TWO_PROFILES_REQUEST, '--force')).code).toBe(0);
});

test('a plan still invalid after one correction is an error naming the fields; nothing is written', async () => {
  const bad = withUnknownRequiredField(twoProfilesPlan());
  model.server.setDefaultScript('plan', plannerScript(bad, bad));
  const refused = await plan(TWO_PROFILES_REQUEST);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    /still invalid after one correction:\n {2}• task\.required_fields\[1\]: "follower_count" is not a key of output_schema/,
  );
  expect(fs.readdirSync(tasksDir)).toEqual([]);
});

test('without ANTHROPIC_API_KEY: a clear message, and no request', async () => {
  const refused = await runBwaInProcess(['plan', ORG_MEMBERS_REQUEST], { AGENT_TASKS_DIR: tasksDir, ANTHROPIC_API_KEY: undefined });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(
    /bwa plan asks Claude to write the task, so it needs ANTHROPIC_API_KEY .*\nWithout a key, start the task with `npx bwa init <task_id>/,
  );
  expect(model.server.requests).toEqual([]);
});

test('plan checks: discovery and samples are either-or; sample rows meet the CSV rules, named by their index', () => {
  const discovering = orgMembersPlan();
  expect(validatePlan({ ...discovering, samples: [{ sample_id: 'a', url: 'http://x/a', username: 'a' }] })).toEqual({
    ok: false,
    problems: '  • samples: leave samples out when needs_discovery is true: they are discovered',
  });
  const withSamples = twoProfilesPlan();
  expect(validatePlan({ ...withSamples, needs_discovery: true })).toMatchObject({
    ok: false,
    problems: expect.stringContaining('task.discover: needs_discovery is true'),
  });
  const badRows = {
    ...withSamples,
    samples: [
      { sample_id: 'ada', username: 'ada' },
      { sample_id: '../etc', username: 'x' },
      { sample_id: 'c', user: 'c' },
    ],
  };
  expect(validatePlan(badRows)).toMatchObject({
    ok: false,
    problems: '  • samples[2].user: not a column of input_schema (columns: sample_id, username)',
  });
  const badId = {
    ...withSamples,
    samples: [
      { sample_id: 'ada', username: 'ada' },
      { sample_id: '../etc', username: 'x' },
    ],
  };
  expect(validatePlan(badId)).toMatchObject({
    ok: false,
    problems: expect.stringContaining('samples[1], column sample_id: "../etc" contains a path separator'),
  });
});
