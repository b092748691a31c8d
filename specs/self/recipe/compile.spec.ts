import { expect, test } from '../../../agent/fixture';
import { compileRecipe, statedConstants } from '../../../agent/recipe/compile';
import { saveCompiled } from '../../../agent/recipe/record';
import { recipeStore } from '../../../agent/recipe/recipe-store';
import { SampleSession } from '../../../agent/session';
import { peopleProfileScript } from '../../../fixtures/model-scripts/people-profile';
import { bundledTask, useScriptedModel } from '../helpers/agent-env';
import { peopleTruth, personSample, recordRecipe, runOne, searchScript, sourceOf, valuesOf, type People } from './helpers';
import { SITE } from '../helpers/sites';

const model = useScriptedModel({}, { resetEachTest: true });
let people: People;

test.beforeAll(async () => {
  people = await peopleTruth();
});

const REF = /"(?:f\d+)?e\d+"/;

test('compiled from a scripted model run: no refs, row values as {{username}}, pinned names the model stated (passed through, not read) bound to the elements that show them, replays on its sample and on others with no model', async ({
  agent,
  browser,
}) => {
  const task = bundledTask('people_profile', { recipe: undefined });
  model.server.setScript('people_profile', 'ada', peopleProfileScript('ada', { statedPinned: people.ada!.pinned }));
  const result = await agent.run(task, personSample('ada'));
  expect(result.status).toBe('done');
  expect(result.extracted.pinned!.provenance.source).toBe('model');

  const compiled = await compileRecipe({
    prepare: o => SampleSession.prepare(o),
    task,
    source: sourceOf(result),
    browser,
    runId: process.env.AGENT_RUN_ID!,
  });
  const text = JSON.stringify(compiled.steps);
  expect(text).not.toMatch(REF);
  for (const adaOnly of ['Ada Lovelace', 'London, UK', '1,234', 'analytical-engine']) expect(text).not.toContain(adaOnly);
  expect(compiled.startUrl).toBe(`${SITE.people}/people/{{username}}`);
  expect(compiled.steps.map(s => s.action)).toEqual([
    'screenshot',
    'extract',
    'extract',
    'extract',
    'extract',
    'click',
    'extract',
    'extract',
    'done',
  ]);
  // The pinned names the model only stated are bound to the elements that show them.
  expect(compiled.fields.pinned).toMatchObject({ how: 'dom' });
  expect(compiled.verifiedOn).toEqual([{ sample_id: 'ada', fields: 6 }]);

  await saveCompiled(task, compiled, sourceOf(result), { kind: 'explicit' });
  for (const username of ['grace', 'esther_petrov']) {
    const replayed = await runOne(browser, task, username, 'recipe');
    expect(replayed.status, replayed.error ?? '').toBe('done');
    expect(replayed.decider).toBe('recipe');
    expect(replayed.usage.model_calls).toBe(0);
    const person = people[username]!;
    expect(valuesOf(replayed)).toMatchObject({ ...person, pinned: person.pinned.length ? person.pinned : null, company: person.company });
  }
  expect(model.server.requests.filter(r => r.key?.sampleId !== 'ada')).toEqual([]);
});

test("pruning: a pause, a failed click and a detour are left out; a goto and a click on the sample's own item become templates", async ({
  agent,
  browser,
}) => {
  const task = bundledTask('people_profile', { task_id: 'people_search', start_url: `${SITE.people}/`, recipe: undefined });
  model.server.setScript('people_search', 'ada', searchScript('ada'));
  const result = await agent.run(task, personSample('ada'));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');

  const compiled = await compileRecipe({
    prepare: o => SampleSession.prepare(o),
    task,
    source: sourceOf(result),
    browser,
    runId: process.env.AGENT_RUN_ID!,
  });
  const [search, open, ...rest] = compiled.steps;
  expect(search).toMatchObject({ action: 'goto', url: `${SITE.people}/search?q={{username}}` });
  expect(search!.expect_url).toBe('^http://127\\.0\\.0\\.1:4101/search(?:[?#].*)?$');
  expect(open!.action).toBe('click');
  expect(JSON.stringify(open!.target)).toContain('{{username}}');
  expect(JSON.stringify(compiled.steps)).not.toMatch(/Repositories|"wait"|"go_back"|e999|Ada Lovelace/);
  expect(rest[0]).toMatchObject({ action: 'screenshot', label: 'profile' });
  expect(compiled.notes.join(' ')).toMatch(/step 2 \(wait\): a pause that waits for nothing.*step 3 \(click\): failed.*Repositories.*a detour/);

  await saveCompiled(task, compiled, sourceOf(result), { kind: 'explicit' });
  const grace = await runOne(browser, task, 'grace', 'recipe');
  expect(grace.status, grace.error ?? '').toBe('done');
  expect(valuesOf(grace)).toMatchObject({ display_name: 'Grace Hopper', followers: people.grace!.followers });
});

test('AGENT_RECORD=1: once two model samples are done the recipe is compiled over both; later samples replay it with no model call', async ({
  browser,
}) => {
  // Four samples and a compilation in one test: 1.7 min alone at load ~25, past the 2-minute default in the full suite.
  test.setTimeout(300_000);
  const task = bundledTask('people_profile', { recipe: undefined });
  process.env.AGENT_RECORD = '1';
  try {
    model.server.setScript('people_profile', 'ada', peopleProfileScript('ada'));
    model.server.setScript('people_profile', 'grace', peopleProfileScript('grace'));
    const first = await runOne(browser, task, 'ada', 'auto');
    expect(first.decider).toBe('model');
    expect(first.notes).toContain('recipe not recorded yet: 1 of 2 model-decided samples done (AGENT_RECORD_SAMPLES)');
    expect(recipeStore().lookup(task).hit).toBe(false);
    const second = await runOne(browser, task, 'grace', 'auto');
    expect(second.decider).toBe('model');
    expect(second.notes.join('\n')).toMatch(
      /recipe compiled from (ada|grace), checked on (ada|grace): .*recipes\/people_profile\.json \(revision 1, 9 steps\)/,
    );
    const stored = recipeStore().lookup(task);
    expect(stored.hit).toBe(true);

    for (const username of ['linus', 'barbara']) {
      const later = await runOne(browser, task, username, 'auto');
      expect(later.status, later.error ?? '').toBe('done');
      expect(later.decider).toBe('recipe-heal');
      expect(later.usage.model_calls).toBe(0);
      expect(later.extracted.followers!.value).toBe(people[username]!.followers);
    }
    expect(model.server.requests.filter(r => r.kind === 'decider').every(r => ['ada', 'grace'].includes(r.key?.sampleId ?? ''))).toBe(true);
  } finally {
    delete process.env.AGENT_RECORD;
  }
});

test('AGENT_RECORD=1 side by side: a recorded sample whose run-memory call is slow still sees the other one done and compiles over both', async ({
  browser,
}) => {
  const task = bundledTask('people_profile', { recipe: undefined });
  process.env.AGENT_RECORD = '1';
  // Run memory as bwa runs by default (the scripted-model helper turns it off).
  process.env.AGENT_MEMORY_DISTILL = 'on';
  try {
    model.server.setScript('people_profile', 'ada', peopleProfileScript('ada'));
    // The fast model takes 3 s to write grace's navigation tips (run memory, on by default).
    const slowTips = {
      contains: 'navigation tips',
      answer: '- Open the profile page and read the header card',
      fault: { kind: 'slow' as const, delay_ms: 3_000 },
    };
    model.server.setScript('people_profile', 'grace', { ...(peopleProfileScript('grace') as object), text: [slowTips] } as Parameters<
      typeof model.server.setScript
    >[2]);
    // As the fixture runs a sample: it adds what it taught to the run memory (runOne leaves that out).
    const run = async (username: string) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        return await (
          await SampleSession.prepare({
            task,
            sample: personSample(username),
            context,
            page: await context.newPage(),
            runId: process.env.AGENT_RUN_ID!,
            attempt: 0,
            deciderMode: 'auto',
            afterLoop: recordRecipe,
          })
        ).run();
      } finally {
        await context.close();
      }
    };
    const [ada, grace] = await Promise.all([run('ada'), run('grace')]);
    expect([ada.status, grace.status]).toEqual(['done', 'done']);
    expect(grace.usage.by_purpose?.memory?.calls).toBe(1);
    const notes = [...ada.notes, ...grace.notes].join('\n');
    expect(notes).toMatch(/recipe compiled from (ada|grace), checked on (ada|grace)/);
    expect(recipeStore().lookup(task).hit).toBe(true);
  } finally {
    delete process.env.AGENT_RECORD;
    process.env.AGENT_MEMORY_DISTILL = 'off';
  }
});

test('a value no page shows, stated the same on both recorded samples, is written into done; a judgment task keeps it for the judge', async ({
  agent,
  browser,
}) => {
  const task = bundledTask('people_profile', {
    task_id: 'people_checked',
    recipe: undefined,
    output_schema: { ...bundledTask('people_profile').spec.output_schema, profile_checked: 'boolean' },
  });
  const withCheck = (username: string) =>
    peopleProfileScript(username, { statedPinned: people[username]!.pinned, stated: { profile_checked: true } });
  model.server.setScript('people_checked', 'ada', withCheck('ada'));
  model.server.setScript('people_checked', 'grace', withCheck('grace'));
  const [ada, grace] = [await agent.run(task, personSample('ada')), await agent.run(task, personSample('grace'))];
  expect([ada.status, grace.status]).toEqual(['done', 'done']);

  const compiled = await compileRecipe({
    prepare: o => SampleSession.prepare(o),
    task,
    source: sourceOf(ada),
    others: [sourceOf(grace)],
    browser,
    runId: process.env.AGENT_RUN_ID!,
  });
  expect(compiled.fields.profile_checked).toMatchObject({ how: 'constant' });
  expect(compiled.steps.at(-1)).toMatchObject({ action: 'done', extracted: { profile_checked: true } });

  const judged = bundledTask('people_profile', { ...task.spec, judgment_required: true, judgment_question: 'Is the profile complete?' });
  const stated = [{ field: 'profile_checked', value: true }];
  const unbound = { profile_checked: { how: 'unbound' as const } };
  expect(statedConstants(task.spec, stated, unbound, [sourceOf(grace)])).toEqual({ profile_checked: true });
  expect(statedConstants(judged.spec, stated, unbound, [sourceOf(grace)])).toEqual({});
  expect(statedConstants(task.spec, stated, unbound, [])).toEqual({});
});
