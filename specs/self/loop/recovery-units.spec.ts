import { expect, test } from '@playwright/test';
import type { ActionCall } from '../../../agent/actions/core/dispatch';
import type { ActionResult } from '../../../agent/actions/core/types';
import { shouldBreakBatch } from '../../../agent/loop/batch';
import { RecoveryMonitor, type StepObservation } from '../../../agent/loop/recovery';

const success: ActionResult = { success: true, description: 'ok' };
const call = (name: string, args: Record<string, unknown> = {}): ActionCall => ({ name, args });
const seen = (name: string, extra: Partial<StepObservation> = {}): StepObservation => ({
  url: 'http://h/list',
  page: 'same page',
  call: call(name, { target: 'e5' }),
  result: success,
  newData: false,
  ...extra,
});

test('stagnation escalates once per level: nudge at 3, demand + checkpoint at 5, done|fail only at 8', () => {
  const monitor = new RecoveryMonitor(50);
  const notices: string[][] = [];
  notices.push(monitor.after(seen('extract', { newData: true })));
  // Four kinds of action in turn, so no kind reaches the spam limit on this page.
  const kinds = ['wait', 'hover', 'scroll', 'press'];
  for (let i = 1; i <= 9; i++) {
    const name = kinds[(i - 1) % kinds.length]!;
    notices.push(monitor.after(seen(name, { call: call(name, { n: i }) })));
    if (i === 5) {
      expect(monitor.checkpointRequested).toBe(true);
      monitor.checkpointRequested = false;
    }
    expect(monitor.forceFinish).toBe(i >= 8);
  }
  const levelOf = (list: string[]) =>
    list.some(n => n.startsWith('The page has not changed for 3 steps'))
      ? 1
      : list.some(n => n.startsWith('CHANGE YOUR STRATEGY NOW: 5 steps'))
        ? 2
        : list.some(n => n.includes('8 steps without progress: you MUST call done'))
          ? 3
          : 0;
  expect(notices.map(levelOf)).toEqual([0, 0, 0, 1, 0, 2, 0, 0, 3, 0]);
  expect(monitor.checkpointRequested).toBe(false);
});

test('new data or a new page resets stagnation', () => {
  const monitor = new RecoveryMonitor(50);
  for (let i = 0; i < 4; i++) monitor.after(seen('wait', { call: call('wait', { n: i }) }));
  monitor.after(seen('save_progress', { newData: true }));
  expect(monitor.after(seen('wait', { call: call('wait', { n: 9 }) }))).toEqual([]);
  monitor.after(seen('wait', { call: call('wait', { n: 10 }) }));
  expect(monitor.after(seen('wait', { page: 'another page', call: call('wait', { n: 11 }) }))).toEqual([]);
});

test('spam: 4 actions of one type on a page they leave unchanged, without new data, leaves only done and fail', () => {
  const monitor = new RecoveryMonitor(50);
  const scroll = (i: number) =>
    monitor.after({
      url: 'http://h/list',
      page: 'the end of the list',
      call: call('scroll', { direction: 'down', n: i }),
      result: success,
      newData: false,
    });
  expect(scroll(1)).toEqual([]);
  scroll(2);
  scroll(3);
  expect(monitor.forceFinish).toBe(false);
  expect(scroll(4)).toContainEqual(
    'STOP: 4 scroll actions on this page left it exactly as it was (same URL, text, values and states) and brought no new data. Only done and fail are available now — finish with what you have.',
  );
  expect(monitor.forceFinish).toBe(true);
});

test('an action repeated on a page that changes each time is progress: no loop notice, no stop, no stagnation — only the budget ends it', () => {
  const monitor = new RecoveryMonitor(50);
  const months = ['December 2026', 'November 2026', 'October 2026', 'September 2026', 'August 2026', 'July 2026', 'June 2026', 'May 2026'];
  const notices = months.flatMap(month =>
    monitor.after({
      url: 'http://h/date-picker',
      page: `calendar at ${month}`,
      call: call('click', { target: 'e10' }),
      result: success,
      newData: false,
      targetLabel: 'button "Previous month"',
    }),
  );
  expect(notices).toEqual([]);
  expect(monitor.forceFinish).toBe(false);
  expect(monitor.effectiveMaxSteps).toBe(50);
});

test('the same action on the same page state again and again is named with its target and what stayed the same', () => {
  const monitor = new RecoveryMonitor(50);
  const click = () =>
    monitor.after({
      url: 'http://h/form',
      page: 'form unchanged',
      call: call('click', { target: 'e7' }),
      result: success,
      newData: false,
      targetLabel: 'button "Save"',
    });
  expect([...click(), ...click()]).toEqual([]);
  expect(click()).toEqual([
    'You have taken the same action (click button "Save") 3 times on this page and it stayed exactly as it was (same URL, text, values and states): it changes nothing here. Try a different approach, or call done or fail.',
  ]);
});

test('without a look at the page (a recipe, the rest of a batch) nothing is claimed about progress', () => {
  const monitor = new RecoveryMonitor(50);
  const blind = () => monitor.after({ url: 'http://h/list', call: call('scroll', { direction: 'down' }), result: success, newData: false });
  const notices = Array.from({ length: 9 }, blind).flat();
  expect(notices).toEqual([]);
  expect(monitor.forceFinish).toBe(false);
});

test('repeats are counted since the last new data: a list visited item by item is not spam', () => {
  const monitor = new RecoveryMonitor(50);
  for (let item = 1; item <= 6; item++) {
    monitor.after({ url: 'http://h/list', page: 'list', call: call('click', { target: `e${item}` }), result: success, newData: false });
    monitor.after({
      url: `http://h/pr/${item}`,
      page: `pr${item}`,
      call: call('save_progress', { data: { n: item } }),
      result: success,
      newData: true,
    });
    monitor.after({ url: `http://h/pr/${item}`, page: `pr${item}`, call: call('go_back'), result: success, newData: false });
  }
  expect(monitor.forceFinish).toBe(false);
});

test('the same action 3 times is a loop notice (once), extracts and screenshots are never spam', () => {
  const monitor = new RecoveryMonitor(50);
  const same = () =>
    monitor.after({
      url: 'http://h/pr/1',
      page: 'pr 1',
      call: call('extract', { field: 'title', target: 'e16' }),
      result: success,
      newData: false,
    });
  expect(same()).toEqual([]);
  expect(same()).toEqual([]);
  expect(same()).toEqual([
    'You have taken the same action (extract) 3 times on this page and it stayed exactly as it was (same URL, text, values and states): it changes nothing here. Try a different approach, or call done or fail.',
  ]);
  // Said once; the page not changing is stagnation's to say from here on, and an extract is never spam.
  const later = [...same(), ...same()];
  expect(later.filter(notice => notice.includes('same action') || notice.startsWith('STOP'))).toEqual([]);
  expect(monitor.forceFinish).toBe(false);
});

test('budget warnings at 75% and 90%, each once; pagination grants 3 more steps', () => {
  const monitor = new RecoveryMonitor(20);
  const fired = Array.from({ length: 20 }, (_, i) => monitor.budgetNotices(i + 1));
  expect(fired.flatMap((n, i) => n.map(text => `${i + 1}: ${text.split(')')[0]})`))).toEqual([
    '15: 75% of the step budget is used (15 of 20)',
    '18: URGENT: 90% of the step budget is used (18 of 20)',
  ]);
  const paged = new RecoveryMonitor(20);
  expect(
    paged.after({ url: 'http://h/list', call: call('click', { target: 'e55' }), result: success, newData: false, paginates: true }),
  ).toContainEqual('Pagination detected: +3 steps (budget now 23).');
  expect(paged.effectiveMaxSteps).toBe(23);
  const failed = { success: false, description: 'x', error: 'x' };
  expect(paged.after({ url: 'http://h/list', call: call('click', { target: 'e56' }), result: failed, newData: false, paginates: true })).toEqual([]);
  // "Next" of a form's tabs or a date picker is no pager control (the snapshot says which are: pagination.ts).
  expect(paged.after({ url: 'http://h/form', call: call('click', { target: 'e57' }), result: success, newData: false, paginates: false })).toEqual(
    [],
  );
  expect(paged.effectiveMaxSteps).toBe(23);
});

test('three failures in a row ask for the visible elements; only infra errors feed the circuit breaker', () => {
  const monitor = new RecoveryMonitor(50);
  const fail = (infra: boolean) =>
    monitor.after({
      url: 'http://h',
      call: call('goto', { url: 'http://h/x' }),
      result: { success: false, description: 'x', error: 'x', infra },
      newData: false,
    });
  fail(true);
  fail(true);
  expect(monitor.consecutiveInfraErrors).toBe(2);
  expect(monitor.needsElementList).toBe(false);
  fail(false);
  expect(monitor.needsElementList).toBe(true);
  expect(monitor.consecutiveInfraErrors).toBe(0);
});

test('a multi-action batch stops at navigation, a failure, a batch-ending action or a >20% page change', () => {
  const done = (before: string, after: string, result = success) => ({ result, urlBefore: before, urlAfter: after });
  expect(shouldBreakBatch(call('type'), done('u', 'u'), 40, 44)).toBeUndefined();
  expect(shouldBreakBatch(call('click'), done('u', 'v'), 40, 40)).toBe('the page navigated');
  expect(shouldBreakBatch(call('click'), done('u', 'u', { success: false, description: 'x' }), 40, 40)).toBe('the previous action failed');
  expect(shouldBreakBatch(call('save_progress'), done('u', 'u'), 40, 40)).toBe('save_progress ends a batch');
  expect(shouldBreakBatch(call('click'), done('u', 'u'), 40, 49)).toBe('the page changed (40 → 49 interactive elements)');
});

test('a move that changes only pixels or a class is progress though the page state reads the same: no nudge, no loop, no stop', () => {
  const monitor = new RecoveryMonitor(50);
  const notices: string[] = [];
  // A board drawn on canvases, looked at (a screenshot) before each move: every look reads the same page state.
  for (let move = 0; move < 6; move++) {
    notices.push(...monitor.after(seen('screenshot', { page: 'the board', call: call('screenshot', { label: `move ${move}` }) })));
    const drawn: ActionResult = { success: true, description: 'Clicked — the drawing on the page changed (canvas pixels)', shownChange: 'pixels' };
    notices.push(...monitor.after(seen('click', { page: 'the board', call: call('click', { target: 'e10' }), result: drawn })));
  }
  expect(notices).toEqual([]);
  expect(monitor.forceFinish).toBe(false);
  expect(monitor.checkpointRequested).toBe(false);

  // The same clicks without a change the page shows: the guard fires as it always did.
  const still = new RecoveryMonitor(50);
  const quiet: string[] = [];
  for (let move = 0; move < 4; move++) quiet.push(...still.after(seen('click', { page: 'the board', call: call('click', { target: 'e10' }) })));
  expect(quiet.some(n => n.includes('same action'))).toBe(true);
  expect(still.forceFinish).toBe(true);
});
