import { expect, test } from '@playwright/test';
import type { ActionLogEntry } from '../../../agent/evidence/result-schema';
import { draftRecipe } from '../../../agent/recipe/draft';
import { bundledTask } from '../helpers/agent-env';
import { SITE } from '../helpers/sites';

const entry = (step: number, name: string, args: Record<string, unknown>, extra: Partial<ActionLogEntry> = {}): ActionLogEntry => ({
  step,
  timestamp: new Date(0).toISOString(),
  decider: step === 0 ? 'loop' : 'model',
  action: { name, args },
  outcome: { success: true, description: name },
  url_before: `${SITE.widgets}/drag-drop`,
  url_after: `${SITE.widgets}/drag-drop`,
  duration_ms: 1,
  ...extra,
});

test('a drag replays with the elements recorded for both of its targets, never the refs', () => {
  const task = bundledTask('people_profile', { recipe: undefined }).spec;
  const log = [
    entry(0, 'goto', { url: `${SITE.widgets}/drag-drop` }),
    entry(1, 'drag', { target: 'e12', to: 'e18' }, { locator: { text: 'Write tests' }, arg_locators: { to: { role: 'region', name: 'Done' } } }),
    entry(2, 'done', { extracted: {} }),
  ];
  const draft = draftRecipe(task, { runId: 'r', sampleId: 's', row: { sample_id: 's', username: 'ada' }, log, extracted: {} }, 'conservative');
  expect(draft.steps[0]).toMatchObject({ action: 'drag', target: { text: 'Write tests' }, args: { to: { role: 'region', name: 'Done' } } });

  const unrecorded = [log[0]!, entry(1, 'drag', { target: 'e12', to: 'e18' }, { locator: { text: 'Write tests' } })];
  expect(() =>
    draftRecipe(task, { runId: 'r', sampleId: 's', row: { sample_id: 's', username: 'ada' }, log: unrecorded, extracted: {} }, 'conservative'),
  ).toThrow('step 1 (drag): its to was a ref ("e18") with no element recorded, so it cannot be replayed');
});
