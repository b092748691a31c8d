import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Result } from '../../../agent/evidence/result-schema';
import { resumeOf } from '../../../agent/setup/resume';
import { loadTaskFile, type LoadedTask } from '../../../agent/task/load-task';
import { sampleOf } from '../helpers/agent-env';
import { resultOf } from '../helpers/results';
import { taskJson, tempDir } from '../helpers/temp';

function task(overrides: Record<string, unknown> = {}): LoadedTask {
  const file = path.join(tempDir('bwa-resume-unit-'), 'demo.json');
  fs.writeFileSync(file, JSON.stringify(taskJson({ recipe: [{ action: 'screenshot', label: 'page' }], ...overrides })));
  return loadTaskFile(file);
}

/** What an earlier invocation left for sample ada of this version of the task. */
function doneUnder(version: LoadedTask, overrides: Partial<Result> = {}): Result {
  return resultOf({
    sample_id: 'ada',
    steps: 2,
    input: { sample_id: 'ada', username: 'ada' },
    output_fields: ['name'],
    task_hash: version.hash,
    recipe_hash: version.recipeHash,
    ...overrides,
  });
}

const ada = sampleOf({ sample_id: 'ada', username: 'ada' });
const rerun = { keepChanged: false, judgeBatch: false };

test('a done sample of the same task version resumes; what changed since — spec, recipe, row — runs it again, or is kept on request', () => {
  const original = task();
  expect(resumeOf(original, ada, doneUnder(original), rerun)).toMatchObject({ kind: 'resume' });
  expect(resumeOf(original, ada, undefined, rerun)).toEqual({ kind: 'run' });
  expect(resumeOf(original, ada, doneUnder(original, { status: 'needs_review' }), rerun)).toEqual({ kind: 'run' });

  const newRecipe = task({ recipe: [{ action: 'screenshot', label: 'page', full_page: false }] });
  expect(newRecipe.hash).toBe(original.hash);
  expect(resumeOf(newRecipe, ada, doneUnder(original), rerun)).toEqual({ kind: 'rerun', changed: 'its recipe' });
  const newGoal = task({ goal: 'Extract the name, carefully.' });
  expect(resumeOf(newGoal, ada, doneUnder(original), rerun)).toEqual({ kind: 'rerun', changed: 'the task spec' });
  const newRow = sampleOf({ sample_id: 'ada', username: 'ada-lovelace' });
  expect(resumeOf(original, newRow, doneUnder(original), rerun)).toEqual({ kind: 'rerun', changed: "the sample's row" });
  // Where and when a discovery found the sample is not part of its row.
  const rediscovered = sampleOf({ sample_id: 'ada', username: 'ada', discovered_at: '2026-02-02T00:00:00Z' });
  expect(resumeOf(original, rediscovered, doneUnder(original, { input: { ...ada.row, discovered_at: '2026-01-01T00:00:00Z' } }), rerun).kind).toBe(
    'resume',
  );

  const kept = resumeOf(newGoal, ada, doneUnder(original), { keepChanged: true, judgeBatch: false });
  expect(kept).toMatchObject({ kind: 'resume', keptDespite: 'the task spec' });
});

test('a result from before recipes were hashed is judged by its spec alone; a sample waiting for the batch judge resumes too', () => {
  const original = task();
  const older = doneUnder(original);
  delete older.recipe_hash;
  expect(resumeOf(task({ recipe: [{ action: 'extract', field: 'name', target: { css: 'h1' } }] }), ada, older, rerun).kind).toBe('resume');
  const waiting = doneUnder(original, { status: 'needs_review', judgment_pending: true });
  expect(resumeOf(original, ada, waiting, { keepChanged: false, judgeBatch: true }).kind).toBe('resume');
  expect(resumeOf(original, ada, waiting, rerun).kind).toBe('run');
});
