import { expect, test } from '@playwright/test';
import type { Result } from '../../../agent/evidence/result-schema';
import { RECIPE_FORMAT } from '../../../agent/recipe/entry';
import { SampleSession } from '../../../agent/session';
import type { LoadedTask } from '../../../agent/task/load-task';
import type { RecipeStep } from '../../../agent/task/schema';
import { peopleProfileScript } from '../../../fixtures/model-scripts/people-profile';
import { bundledTask, useScriptedModel } from '../helpers/agent-env';
import { peopleTruth, personSample, runOne, storedEntry, valuesOf, writeEntry, type People } from './helpers';

const model = useScriptedModel({}, { resetEachTest: true });
let people: People;

test.beforeAll(async () => {
  people = await peopleTruth();
});

/** The people_profile recipe as compile writes it, with step 2 pointing at an element the page does not have. */
function brokenRecipe(task: LoadedTask): void {
  const extract = (field: string, css: string, more: Record<string, unknown> = {}) => ({
    action: 'extract',
    field,
    target: { css },
    pattern: '^\\s*(.+)\\s*$',
    ...more,
  });
  storeRecipe(task, [
    { action: 'screenshot', label: 'profile' },
    extract('display_name', '.p-fullname-renamed'),
    extract('bio', 'div.p-note div', { missing: 'null' }),
    extract('company', 'span.p-org', { missing: 'null' }),
    extract('location', 'span.p-label', { missing: 'null' }),
    { action: 'click', target: { text: 'Profile stats', exact: true } },
    { action: 'extract', field: 'followers', type: 'integer', target: { css: 'li.followers-exact' }, pattern: '([\\d,]+) followers' },
    { action: 'extract', field: 'pinned', target: { css: 'span.repo' }, all: true, missing: 'null' },
    { action: 'done', extracted: {} },
  ]);
}

/** Stores steps as revision 1 of the task's compiled recipe, as compile would have written them from sample ada. */
function storeRecipe(task: LoadedTask, steps: RecipeStep[]): void {
  writeEntry(task, {
    format: RECIPE_FORMAT,
    task_id: task.spec.task_id,
    task_hash: task.hash,
    revision: 1,
    compiled_at: '2026-01-01T00:00:00.000Z',
    source: { run_id: 'earlier', sample_id: 'ada' },
    steps,
    fields: {},
    verified_on: [],
    notes: [],
    history: [{ revision: 1, at: '2026-01-01T00:00:00.000Z', run_id: 'earlier', sample_id: 'ada', reason: 'test' }],
  });
}

test('a step that no longer fits: the model repairs it, the replay resumes, the sample ends done and the recipe is rewritten', async ({
  browser,
}) => {
  const task = bundledTask('people_profile', { recipe: undefined });
  brokenRecipe(task);
  const ada = people.ada!;
  model.server.setScript('people_profile', 'ada', {
    steps: [
      { tool: 'extract', target: { role: 'heading', name: ada.display_name }, args: { field: 'display_name', pattern: `^(${ada.display_name})` } },
    ],
    on_exhausted: 'error',
  });
  const healed = await runOne(browser, task, 'ada', 'auto');
  expect(model.server.errors).toEqual([]);
  expect(healed.status, healed.error ?? '').toBe('done');
  expect(healed.decider).toBe('recipe-heal');
  expect(valuesOf(healed)).toMatchObject({ display_name: ada.display_name, followers: ada.followers, pinned: ada.pinned });
  // One model turn: the repair. It was told which step failed and what the rest of the recipe does.
  const turns = model.server.requests.filter(r => r.kind === 'decider');
  expect(turns).toHaveLength(1);
  expect(healed.usage.model_calls).toBe(1);
  expect(turns[0]!.lastUserText).toContain('step 2 of 9 (extract display_name ← css=.p-fullname-renamed');
  expect(turns[0]!.lastUserText).toMatch(/3\. extract bio ← css=div\.p-note div[\s\S]*9\. done/);
  const notes = healed.notes.join('\n');
  expect(notes).toMatch(/self-heal: recipe step 2 \(extract display_name ← css=\.p-fullname-renamed .*\) failed: No element matches/);
  expect(notes).toMatch(/recipe repaired and rewritten: .*people_profile\.json \(revision 2, 9 steps\)/);

  const rewritten = storedEntry(task);
  expect(rewritten.revision).toBe(2);
  expect(rewritten.history.map(h => h.revision)).toEqual([1, 2]);
  expect(JSON.stringify(rewritten.steps)).not.toContain('p-fullname-renamed');
  expect(JSON.stringify(rewritten.steps)).not.toContain(ada.display_name);
  expect(rewritten.steps[1]).toMatchObject({ action: 'extract', field: 'display_name' });

  // The next sample replays revision 2 with no model call.
  const grace = await runOne(browser, task, 'grace', 'auto');
  expect(grace.status, grace.error ?? '').toBe('done');
  expect(grace.extracted.display_name!.value).toBe(people.grace!.display_name);
  expect(grace.usage.model_calls).toBe(0);
});

test('without a key the broken read costs its field: the recipe goes on, the sample ends needs_review naming the step; recipe mode never calls the model', async ({
  browser,
}) => {
  const task = bundledTask('people_profile', { recipe: undefined });
  brokenRecipe(task);
  const key = process.env.ANTHROPIC_API_KEY;
  delete process.env.ANTHROPIC_API_KEY;
  try {
    const offline = await runOne(browser, task, 'ada', 'auto');
    expect(offline.status).toBe('needs_review');
    expect(offline.decider).toBe('recipe');
    expect(offline.error).toMatch(
      /^required fields missing: display_name; recipe step 2 \(extract display_name ← css=\.p-fullname-renamed\) failed: No element matches css=\.p-fullname-renamed/,
    );
    // The steps after it ran: the fields they read are there.
    expect(offline.extracted.bio?.value).toBe(people.ada!.bio);
    expect(offline.failed_steps?.map(step => [step.step, step.field, step.stopped_recipe])).toEqual([[2, 'display_name', false]]);
  } finally {
    process.env.ANTHROPIC_API_KEY = key;
  }
  const recipeOnly = await runOne(browser, task, 'ada', 'recipe');
  expect(recipeOnly.status).toBe('needs_review');
  expect(recipeOnly.error).toContain('recipe step 2 (extract display_name ← css=.p-fullname-renamed) failed');
  expect(model.server.requests).toEqual([]);
  expect(storedEntry(task).revision).toBe(1);
});

test('model mode never replays a stored recipe', async ({ browser }) => {
  const task = bundledTask('people_profile', { recipe: undefined });
  brokenRecipe(task);
  // Pinned stated, not read: eight decisions stay under the step-10 summary, so every model call is a decision.
  model.server.setScript('people_profile', 'grace', peopleProfileScript('grace', { statedPinned: people.grace!.pinned }));
  const result = await runOne(browser, task, 'grace', 'model');
  expect(result.status).toBe('done');
  expect(result.decider).toBe('model');
  expect(model.server.requests.filter(r => r.kind === 'decider').length).toBe(result.usage.model_calls);
  expect(storedEntry(task).revision).toBe(1);
});

test("a replay that ends done makes no model call, not even the fast model's run-memory tips, though a key is set", async ({ browser }) => {
  const task = bundledTask('people_profile', { recipe: undefined });
  storeRecipe(task, bundledTask('people_profile').spec.recipe!);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  let replayed: Result;
  try {
    // As the fixture runs it: the sample then adds what it taught to the run memory.
    const session = await SampleSession.prepare({
      task,
      sample: personSample('linus'),
      context,
      page: await context.newPage(),
      runId: process.env.AGENT_RUN_ID!,
      attempt: 0,
      deciderMode: 'auto',
    });
    replayed = await session.run();
  } finally {
    await context.close();
  }
  expect(replayed.decider).toBe('recipe-heal');
  expect(replayed.status).toBe('done');
  expect(replayed.usage.model_calls).toBe(0);
  expect(model.server.requests).toEqual([]);
});

test('AGENT_JUDGE=batch: a replay that collected every fact ends waiting for the batch judge, with no model turn for the judgment', async ({
  browser,
}) => {
  const judged = { judgment_required: true, judgment_question: 'Is this profile complete?', judgment_output_schema: { answer: 'yes | no' } };
  const task = bundledTask('people_profile', judged);
  storeRecipe(task, task.spec.recipe!);
  process.env.AGENT_JUDGE = 'batch';
  try {
    const replayed = await runOne(browser, task, 'linus', 'auto');
    expect(replayed.decider).toBe('recipe-heal');
    expect(replayed.status).toBe('needs_review');
    expect(replayed.judgment_pending).toBe(true);
    expect(replayed.error).toContain('awaiting the batch judgment');
    expect(replayed.usage.model_calls).toBe(0);
    expect(valuesOf(replayed)).toMatchObject({ followers: people.linus!.followers });
    expect(model.server.requests).toEqual([]);
  } finally {
    delete process.env.AGENT_JUDGE;
  }
});
