import { expect, test } from '../../../agent/fixture';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTaskFile } from '../../../agent/task/load-task';
import { TIC_TAC_TOE } from '../../../fixtures/sites/widgets/cases/shown-not-said';
import type { RecordedRequest } from '../../../fixtures/model-server';
import { sampleOf, useScriptedModel } from '../helpers/agent-env';
import { SITE, SITE_HOST } from '../helpers/sites';
import { tempDir } from '../helpers/temp';
import { deciderTurns, section, stepOf } from '../workflows/audit-env';

/**
 * Progress is what the page shows: ten clicks on a date picker's "Previous month" each move the month label, so the
 * loop guard stays quiet and the task ends by itself within its step budget; a click that leaves the page exactly as it
 * was is named as a dead end with what stayed the same, and a fourth one leaves only done and fail. A board drawn on
 * canvases changes only pixels with each move: that is progress too.
 */

const scripted = useScriptedModel();

const START = `${SITE.widgets}/date-picker?month=2026-12`;

function task(taskId: string, maxSteps: number) {
  const file = path.join(tempDir(), `${taskId}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      task_id: taskId,
      start_url: START,
      system_prompt: 'You book stays.',
      goal: 'Choose 15 February 2026 as the check-in date and read the date the page confirms.',
      output_schema: { confirmation: 'string' },
      required_fields: ['confirmation'],
      allowed_domains: [SITE_HOST.widgets],
      max_steps: maxSteps,
    }),
  );
  return loadTaskFile(file);
}

const notices = (request: RecordedRequest) => section(request, 'Notices') ?? '';
const GUARD_WORDS = ['same action', 'STOP:', 'has not changed', 'without progress', 'Pagination detected'];

test('ten "Previous month" clicks that each move the month are progress: no loop notice, no dead end, no stop — the task finishes', async ({
  agent,
}) => {
  const previous = { tool: 'click', target: { role: 'button', name: 'Previous month' } };
  scripted.server.setScript('walk_months', 'back', {
    steps: [
      { tool: 'click', target: { role: 'button', name: 'Choose date' } },
      ...Array.from({ length: 10 }, () => previous),
      { tool: 'click', target: { role: 'button', name: '15' } },
      { tool: 'extract', target: { text: 'Selected:' }, args: { field: 'confirmation' } },
      { tool: 'done', args: { extracted: {} } },
    ],
  });
  // 1 start page + 14 decided steps: the budget is exactly the task's length.
  const result = await agent.run(task('walk_months', 15), sampleOf({ sample_id: 'back' }));
  expect(scripted.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  // Ten months back from December 2026, then day 15: the page confirms the date the clicks reached.
  expect(result.extracted.confirmation!.value).toBe('Selected: 2026-02-15');

  const turns = deciderTurns(scripted.server.requests, 'back');
  expect(turns.map(stepOf)).toEqual(Array.from({ length: 14 }, (_, i) => i + 2));
  for (const turn of turns) {
    for (const words of GUARD_WORDS) expect(notices(turn), `step ${stepOf(turn)}`).not.toContain(words);
    expect(section(turn, 'Run state') ?? '').not.toContain('DEAD ENDS');
  }
  // Only the budget's own last step is restricted to done and fail.
  expect(turns.filter(t => t.lastUserText.includes('LAST STEP')).map(stepOf)).toEqual([15]);
  // The month label the model saw moved with every click.
  const months = turns
    .slice(1, 12)
    .map(t => /"(January|February|March|April|May|June|July|August|September|October|November|December) 2026"/.exec(t.lastUserText)?.[1]);
  expect(months).toEqual(['December', 'November', 'October', 'September', 'August', 'July', 'June', 'May', 'April', 'March', 'February']);
});

test('a click that leaves the page exactly as it was is named as a dead end with what stayed the same; the fourth leaves only done and fail', async ({
  agent,
}) => {
  const heading = { tool: 'click', target: { role: 'heading', name: 'Date picker' } };
  scripted.server.setScript('walk_months', 'stuck', {
    steps: [heading, heading, heading, heading, { tool: 'fail', args: { reason: 'the heading does nothing' } }],
  });
  await expect(agent.run(task('walk_months', 15), sampleOf({ sample_id: 'stuck' }))).rejects.toThrow(/stuck: failed — the heading does nothing/);
  expect(scripted.server.errors).toEqual([]);
  const turns = deciderTurns(scripted.server.requests, 'stuck');
  const at = (step: number) => turns.find(t => stepOf(t) === step)!;
  expect(notices(at(4))).not.toContain('same action');
  expect(notices(at(5))).toContain(
    'You have taken the same action (click heading "Date picker") 3 times on this page and it stayed exactly as it was (same URL, text, values and states): it changes nothing here.',
  );
  expect(section(at(5), 'Run state')).toMatch(
    /DEAD ENDS \(repeated 3 times on this page while it stayed the same: same URL, text, values and states\): click e\d+ on 127\.0\.0\.1:4102\/date-picker\?month=2026-12/,
  );
  expect(notices(at(6))).toContain('STOP: 4 click actions on this page left it exactly as it was');
  expect(at(6).lastUserText).toContain('LAST STEP: only done or fail are available now.');
});

test('a game drawn on canvases: each move changes only pixels, the model looks before each — no stagnation, no stop, and the win is read', async ({
  agent,
}) => {
  const file = path.join(tempDir(), 'tic_tac_toe.json');
  fs.writeFileSync(
    file,
    JSON.stringify({
      task_id: 'tic_tac_toe',
      start_url: `${SITE.widgets}/tic-tac-toe`,
      system_prompt: 'You play games in the browser.',
      goal: 'Win the game of tic-tac-toe and read the result the page gives.',
      output_schema: { result: 'string' },
      required_fields: ['result'],
      allowed_domains: [SITE_HOST.widgets],
      max_steps: 20,
    }),
  );
  /** The n-th cell of the board (reading order), by the ref the page state gave it: the cells have no name. */
  const cell = (n: number) => ({
    what: `play cell ${n}`,
    decide: ({ page }: { page: Array<{ ref?: string; role?: string; rest: string }> }) => {
      const cells = page.filter(line => line.role === 'clickable' && line.rest.includes('icon="cell"'));
      if (cells.length !== 9) throw new Error(`the page state shows ${cells.length} cells, not 9`);
      return { tool: 'click', target: { ref: cells[n]!.ref! } };
    },
  });
  scripted.server.setScript('tic_tac_toe', 'win', {
    steps: [
      ...TIC_TAC_TOE.winningMoves.flatMap((n, move) => [{ tool: 'screenshot', args: { label: `board ${move + 1}`, full_page: false } }, cell(n)]),
      { tool: 'extract', target: { role: 'status', name: TIC_TAC_TOE.won }, args: { field: 'result' } },
      { tool: 'done', args: { extracted: {} } },
    ],
  });
  const result = await agent.run(loadTaskFile(file), sampleOf({ sample_id: 'win' }));
  expect(scripted.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  expect(result.extracted.result!.value).toBe(TIC_TAC_TOE.won);
  const turns = deciderTurns(scripted.server.requests, 'win');
  for (const turn of turns) {
    for (const words of GUARD_WORDS) expect(notices(turn), `step ${stepOf(turn)}`).not.toContain(words);
    expect(turn.lastUserText).not.toContain('LAST STEP');
  }
  // Each move's result said what the page showed: the board's drawing changed — but the winning one, whose change
  // (the status) the next page state shows in words.
  const told = new Set(
    turns.flatMap(t => [...t.lastUserText.matchAll(/Step (\d+): click\([^\n]*the drawing on the page changed \(canvas pixels\)/g)].map(m => m[1])),
  );
  expect(told.size).toBe(3);
});
