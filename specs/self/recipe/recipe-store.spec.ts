import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import { selectDecider } from '../../../agent/decide/select-decider';
import { RecipeDecider } from '../../../agent/decide/recipe-decider';
import { SelfHealingDecider } from '../../../agent/decide/self-heal';
import { RECIPE_FORMAT } from '../../../agent/recipe/entry';
import { compiledRecipe, fileRecipeStore, memoryRecipeStore, recipeFileFor, useRecipeStore } from '../../../agent/recipe/recipe-store';
import { loadTaskFile } from '../../../agent/task/load-task';
import { bundledTask } from '../helpers/agent-env';
import { writeEntry } from './helpers';

const STEPS = [
  { action: 'extract', field: 'display_name', target: { css: '[itemprop="name"]' } },
  { action: 'done', extracted: {} },
];

function entryFor(task: { spec: { task_id: string }; hash: string }, overrides: Record<string, unknown> = {}) {
  return {
    format: RECIPE_FORMAT,
    task_id: task.spec.task_id,
    task_hash: task.hash,
    revision: 3,
    compiled_at: '2026-01-01T00:00:00.000Z',
    source: { run_id: 'r', sample_id: 'ada' },
    steps: STEPS,
    fields: {},
    verified_on: [],
    notes: [],
    history: [],
    ...overrides,
  };
}

test('an entry for this exact task spec is a hit; beside the spec under recipes/<task_id>.json', () => {
  const task = bundledTask('people_profile', { recipe: undefined });
  expect(fileRecipeStore.lookup(task)).toMatchObject({ hit: false, reason: 'no recipe compiled yet' });
  writeEntry(task, entryFor(task));
  expect(recipeFileFor(task)).toMatch(/recipes\/people_profile\.json$/);
  expect(fileRecipeStore.lookup(task)).toMatchObject({ hit: true, entry: { revision: 3 } });
  expect(compiledRecipe(task)).toEqual({ steps: STEPS, revision: 3 });
});

test('a stale entry (the task spec changed), another format, a step naming no action, another task or an unreadable file is a miss, never an error', () => {
  const task = bundledTask('people_profile', { recipe: undefined });
  writeEntry(task, entryFor(task));
  // Edit the spec the entry was compiled for: its hash changes.
  const spec = JSON.parse(fs.readFileSync(task.file, 'utf8'));
  fs.writeFileSync(task.file, JSON.stringify({ ...spec, goal: `${spec.goal} Also note the join date.` }));
  const edited = loadTaskFile(task.file);
  expect(edited.hash).not.toBe(task.hash);
  expect(fileRecipeStore.lookup(edited)).toMatchObject({ hit: false, reason: 'stale: the task spec changed since it was compiled' });
  expect(compiledRecipe(edited)).toBeUndefined();
  // An entry written before it kept the spec's own recipe stays fresh when only that recipe changes (the hash leaves it out)…
  fs.writeFileSync(task.file, JSON.stringify({ ...spec, recipe: [{ action: 'done', extracted: {} }] }));
  const ownRecipeEdited = loadTaskFile(task.file);
  expect(fileRecipeStore.lookup(ownRecipeEdited).hit).toBe(true);
  // …one that kept it is stale once the author edits their recipe: the author's latest word replays.
  writeEntry(task, entryFor(task, { spec_recipe_hash: task.recipeHash }));
  expect(fileRecipeStore.lookup(task).hit).toBe(true);
  expect(fileRecipeStore.lookup(ownRecipeEdited)).toMatchObject({
    hit: false,
    reason: "stale: the task spec's own recipe changed since it was compiled",
  });
  fs.writeFileSync(task.file, JSON.stringify(spec));

  writeEntry(task, entryFor(task, { format: RECIPE_FORMAT + 1 }));
  expect(fileRecipeStore.lookup(task)).toMatchObject({
    hit: false,
    reason: `stored in format ${RECIPE_FORMAT + 1}, this bwa reads format ${RECIPE_FORMAT}`,
  });
  // Steps are typed from the action registry: a step naming no action is no recipe.
  writeEntry(task, entryFor(task, { steps: [{ action: 'teleport' }] }));
  expect(fileRecipeStore.lookup(task)).toMatchObject({
    hit: false,
    reason: expect.stringMatching(/^not a recipe entry \(unknown action "teleport"/),
  });
  writeEntry(task, entryFor(task, { task_id: 'other' }));
  expect(fileRecipeStore.lookup(task)).toMatchObject({ hit: false, reason: 'recorded for task other' });
  fs.writeFileSync(recipeFileFor(task), '{ "format": 1, "steps": [');
  expect(fileRecipeStore.lookup(task)).toMatchObject({ hit: false, reason: expect.stringMatching(/^unreadable/) });
});

test("decider choice: a fresh compiled recipe first, else the spec's own; auto with a key self-heals it, without one or in recipe mode it replays; model mode never replays", () => {
  const task = bundledTask('people_profile');
  const model = { kind: 'model', needsView: true, decide: async () => ({ actions: [] }) };
  const compiled = { steps: STEPS, revision: 1 };
  const healing = selectDecider(task.spec, 'auto', true, { model: () => model }, compiled);
  expect(healing).toBeInstanceOf(SelfHealingDecider);
  expect((healing as SelfHealingDecider).revision).toBe(1);
  expect(selectDecider(task.spec, 'auto', false, { model: () => model }, compiled)).toBeInstanceOf(RecipeDecider);
  expect(selectDecider(task.spec, 'recipe', true, { model: () => model }, compiled)).toBeInstanceOf(RecipeDecider);
  expect(selectDecider(task.spec, 'model', true, { model: () => model }, compiled)).toBe(model);
  // No compiled recipe: the spec's own self-heals with a key (revision 0: a repair becomes the first compiled one).
  const own = selectDecider(task.spec, 'auto', true, { model: () => model });
  expect(own).toBeInstanceOf(SelfHealingDecider);
  expect((own as SelfHealingDecider).revision).toBe(0);
  expect(selectDecider(task.spec, 'model', true, { model: () => model })).toBe(model);
  expect(selectDecider({ ...task.spec, recipe: undefined }, 'auto', true, { model: () => model })).toBe(model);
  const fallback = selectDecider(task.spec, 'recipe', false, {}) as RecipeDecider;
  expect(fallback.remaining).toEqual(task.spec.recipe);
  expect(() => selectDecider({ ...task.spec, recipe: undefined }, 'recipe', true, { model: () => model })).toThrow(
    'task people_profile has no recipe and AGENT_DECIDER=recipe never calls the model',
  );
});

test('the memory store gives tests a recipe store that never touches the tasks folder', async () => {
  const task = bundledTask('people_profile', { recipe: undefined });
  const memory = memoryRecipeStore();
  const restore = useRecipeStore(memory);
  try {
    await memory.update(task, () => entryFor(task) as never);
    expect(compiledRecipe(task)?.revision).toBe(3);
    expect(fs.existsSync(recipeFileFor(task))).toBe(false);
  } finally {
    restore();
  }
  expect(compiledRecipe(task)).toBeUndefined();
});
