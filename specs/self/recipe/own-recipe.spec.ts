import { expect, test, type Browser } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { recipeFileFor } from '../../../agent/recipe/recipe-store';
import { loadTaskFile, type LoadedTask } from '../../../agent/task/load-task';
import type { ShelfItem } from '../../../fixtures/sites/widgets/cases/shelf-item';
import { sampleOf, useScriptedModel } from '../helpers/agent-env';
import { SITE, SITE_HOST } from '../helpers/sites';
import { tempDir } from '../helpers/temp';
import { runSampleAlone, storedEntry, valuesOf } from './helpers';

/**
 * A task author's own recipe, with ANTHROPIC_API_KEY set (AGENT_DECIDER=auto): it replays at no model cost, and the
 * model is asked only from a step the page no longer fits — as a compiled recipe self-heals.
 */

const model = useScriptedModel({ AGENT_DECIDER: 'auto' }, { resetEachTest: true });
let items: Record<string, ShelfItem>;

test.beforeAll(async () => {
  const truth = await (await fetch(`${SITE.widgets}/__truth.json`)).json();
  items = Object.fromEntries((truth.cases['shelf-item'].items as ShelfItem[]).map(item => [item.id, item]));
});

/** The recipe as its author wrote it, looking at an item page in the old layout. */
const AUTHORS_RECIPE = [
  { action: 'screenshot', label: 'item' },
  { action: 'extract', field: 'name', target: { css: 'main h1' } },
  { action: 'extract', field: 'price', target: { css: '.item-price' }, pattern: '([\\d.]+)', type: 'number' },
  { action: 'extract', field: 'updated', target: { document: 'json-ld', key: '[0].@graph[1].dateModified' } },
  { action: 'done', extracted: {} },
];

function shelfTask(): LoadedTask {
  const dir = tempDir('bwa-own-recipe-');
  const file = path.join(dir, 'shelf.json');
  const spec = {
    task_id: 'shelf',
    start_url: `${SITE.widgets}/shelf-item?item={{item}}`,
    system_prompt: 'Read the item page.',
    goal: "Screenshot the item, then extract its name, its price (a number) and when the page was last updated (the page's own date).",
    output_schema: { name: 'string', price: 'number', updated: 'string' },
    input_schema: { item: 'string' },
    required_fields: ['name', 'price', 'updated'],
    required_artifacts: ['item'],
    allowed_domains: [SITE_HOST.widgets],
    recipe: AUTHORS_RECIPE,
  };
  fs.writeFileSync(file, JSON.stringify(spec));
  return loadTaskFile(file);
}

const run = (browser: Browser, task: LoadedTask, item: string) => runSampleAlone(browser, task, sampleOf({ sample_id: item, item }), 'auto');

const priceOf = (item: ShelfItem) => Number(item.price.replace(/[^\d.]/g, ''));

test("with a key, the author's recipe replays on a page it fits with no model request at all", async ({ browser }) => {
  const task = shelfTask();
  const lamp = await run(browser, task, 'lamp');
  expect(lamp.status, lamp.error ?? '').toBe('done');
  expect(lamp.decider).toBe('recipe-heal');
  expect(valuesOf(lamp)).toEqual({ name: items.lamp!.name, price: priceOf(items.lamp!), updated: `${items.lamp!.modified}T16:30:00Z` });
  expect(lamp.extracted.updated!.provenance).toMatchObject({ source: 'json-ld', key: '[0].@graph[1].dateModified' });
  expect(lamp.usage.model_calls).toBe(0);
  expect(model.server.requests).toEqual([]);
  // Nothing to heal, nothing compiled.
  expect(fs.existsSync(recipeFileFor(task))).toBe(false);
});

test('a step the changed page no longer fits: the model is asked from that step only, the sample ends done, the healed route is compiled and the next changed page replays it with no request', async ({
  browser,
}) => {
  // Three samples and a compile (which replays the healed sample once more).
  test.setTimeout(120_000);
  const task = shelfTask();
  const kettle = items.kettle!;
  // The scripted model reads the price off the page state it is sent: the line showing the item's price.
  model.server.setScript('shelf', 'kettle', {
    steps: [{ tool: 'extract', target: { text: kettle.price }, args: { field: 'price', pattern: '([\\d.]+)', type: 'number' } }],
    on_exhausted: 'error',
  });
  const healed = await run(browser, task, 'kettle');
  expect(model.server.errors).toEqual([]);
  expect(healed.status, healed.error ?? '').toBe('done');
  expect(valuesOf(healed)).toEqual({ name: kettle.name, price: priceOf(kettle), updated: `${kettle.modified}T16:30:00Z` });
  // One request, for step 3 — the steps before it and after it replayed.
  const asked = model.server.requests;
  expect(asked.map(r => r.kind)).toEqual(['decider']);
  expect(healed.usage.model_calls).toBe(1);
  expect(asked[0]!.lastUserText).toContain('step 3 of 5 (extract price ← css=.item-price');
  expect(asked[0]!.lastUserText).toContain(kettle.price);
  expect(healed.notes.join('\n')).toMatch(
    /self-heal: recipe step 3 \(extract price ← css=\.item-price.*\) failed: No element matches css=\.item-price/,
  );
  expect(healed.notes.join('\n')).toMatch(/the spec's own recipe repaired and compiled .*: .*recipes\/shelf\.json \(revision 1, \d+ steps\)/);

  // The healed route is stored as a compiled recipe would be after a heal: beside the spec, against this spec and its recipe.
  const compiled = storedEntry(task);
  expect(compiled).toMatchObject({ revision: 1, task_hash: task.hash, spec_recipe_hash: task.recipeHash, source: { sample_id: 'kettle' } });
  expect(compiled.history.map(h => h.reason)).toEqual(["self-heal: the model repaired a failed step of the spec's own recipe"]);
  expect(JSON.stringify(compiled.steps)).not.toContain('.item-price');
  expect(JSON.stringify(compiled.steps)).not.toContain(kettle.price);

  const stool = await run(browser, task, 'stool');
  expect(stool.status, stool.error ?? '').toBe('done');
  expect(valuesOf(stool)).toMatchObject({ name: items.stool!.name, price: priceOf(items.stool!) });
  expect(stool.usage.model_calls).toBe(0);
  expect(model.server.requests).toHaveLength(1);
});
