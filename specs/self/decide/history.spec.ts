import { expect, test } from '@playwright/test';
import { compactOutcome, fitHistory } from '../../../agent/decide/history';
import { buildUserMessage, ACCUMULATED_PROMPT_CHARS, messageText } from '../../../agent/decide/prompt';
import { deriveRunState, renderRunState } from '../../../agent/decide/run-state';
import { mechanicalSummary, StepSummarizer } from '../../../agent/decide/summaries';
import type { HistoryEntry } from '../../../agent/decide/types';
import { estimateTokens, promptTokenBudget } from '../../../agent/snapshot';

const ok = (
  step: number,
  name: string,
  args: Record<string, unknown>,
  description: string,
  url = 'http://h/list',
  extra: Partial<HistoryEntry> = {},
): HistoryEntry => ({
  step,
  action: { name, args },
  result: { success: true, description },
  url,
  ...extra,
});
const failed = (step: number, name: string, args: Record<string, unknown>, error: string, url = 'http://h/list'): HistoryEntry => ({
  step,
  action: { name, args },
  result: { success: false, description: `${name} failed`, error },
  url,
});

test.describe('history fitting', () => {
  const long = 'x'.repeat(600);
  function chain(n: number): HistoryEntry[] {
    const entries: HistoryEntry[] = [];
    for (let step = 2; step < n + 2; step++) {
      const kind = step % 5;
      if (kind === 0) entries.push(ok(step, 'save_progress', { data: { prs: [{ number: step }] } }, `Progress saved: item ${step}`));
      else if (kind === 1) entries.push(ok(step, 'scroll', { direction: 'down' }, `Scrolled the page down ${long}`));
      else if (kind === 2)
        entries.push(
          ok(step, 'extract', { field: 'title' }, `title = "${long}"`, 'http://h/list', {
            result: {
              success: true,
              description: `title = "${long}"`,
              effects: { extracted: { field: 'title', value: long, provenance: { source: 'dom', at: 't' } } },
            },
          }),
        );
      else entries.push(ok(step, 'click', { target: `e${step}` }, `Clicked link "PR ${step}"`));
    }
    return entries;
  }

  test('the budget is respected, the last 5 steps stay verbatim, older ones are compacted, output is chronological', () => {
    const entries = chain(45);
    const budget = 900;
    const lines = fitHistory(entries, budget);
    const shown = lines.filter(l => l.startsWith('Step '));
    const cost = shown.reduce((sum, line) => sum + estimateTokens(line), 0);
    expect(cost).toBeLessThanOrEqual(budget);
    expect(lines[0]).toBe(`(${45 - shown.length} earlier steps not shown)`);
    const steps = shown.map(l => Number(/^Step (\d+)/.exec(l)![1]));
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps.slice(-5)).toEqual([42, 43, 44, 45, 46]);
    // The newest extract (step 42) is verbatim; an old one shrinks to its size.
    expect(shown.find(l => l.startsWith('Step 42:'))).toContain('→ title = "xxxxxxxx');
    const oldExtract = shown.find(l => /^Step (\d+): extract/.test(l) && Number(/^Step (\d+)/.exec(l)![1]) < 40);
    if (oldExtract) expect(oldExtract).toMatch(/→ \[title: 602 chars saved\]$/);
    // Importance beats recency for old entries: every save_progress survives, verbose scrolls go first.
    for (const save of entries.filter(e => e.action.name === 'save_progress')) expect(steps).toContain(save.step);
    const scrollsShown = steps.filter(s => s % 5 === 1 && s < 42).length;
    const savesShown = steps.filter(s => s % 5 === 0 && s < 42).length;
    expect(savesShown).toBeGreaterThan(scrollsShown);
  });

  test('at least 5 and at most 25 items, meta entries never', () => {
    const entries = chain(60);
    entries.push({ ...ok(62, 'wait', {}, 'nudge'), meta: true });
    expect(fitHistory(entries, 1).filter(l => l.startsWith('Step '))).toHaveLength(5);
    const roomy = fitHistory(entries, 1_000_000).filter(l => l.startsWith('Step '));
    expect(roomy).toHaveLength(25);
    expect(roomy.some(l => l.startsWith('Step 62:'))).toBe(false);
  });

  test('a stale entry keeps what matters later: screenshot filename, extract size, the failure', () => {
    const shot = ok(3, 'screenshot', { label: 'pr-241' }, 'Screenshot saved: 02_pr-241.png', 'http://h/pr', {
      result: {
        success: true,
        description: 'Screenshot saved: 02_pr-241.png (full page, 1280x2000, taken after waiting for fonts)',
        effects: { artifact: { filename: '02_pr-241.png', sha256: 'a'.repeat(64), bytes: 1, kind: 'screenshot', source_url: 'u', timestamp: 't' } },
      },
    });
    expect(compactOutcome(shot)).toBe('[02_pr-241.png]');
    expect(compactOutcome(failed(4, 'click', { target: 'e9' }, 'Ref e9 not found in the current page snapshot'))).toBe(
      'FAILED: Ref e9 not found in the current page snapshot',
    );
  });

  test('the prompt budget is min(16K, max(8K, 8% of the context window)): a 1M window costs no more than a 200K one', () => {
    expect(promptTokenBudget(200_000)).toBe(16_000);
    expect(promptTokenBudget(1_000_000)).toBe(16_000);
    expect(promptTokenBudget(32_000)).toBe(8_000);
    expect(promptTokenBudget()).toBe(16_000);
  });
});

test.describe('step summaries', () => {
  const entries: HistoryEntry[] = [
    ok(2, 'screenshot', { label: 'merged-list' }, 'Screenshot saved: 01_merged-list.png', 'http://h/list', {
      result: {
        success: true,
        description: 'Screenshot saved: 01_merged-list.png',
        effects: {
          artifact: { filename: '01_merged-list.png', sha256: 'a'.repeat(64), bytes: 1, kind: 'screenshot', source_url: 'u', timestamp: 't' },
        },
      },
    }),
    ok(3, 'click', { target: 'e22' }, 'Clicked link "Fix editor"', 'http://h/pr/1', { reflection: { next_goal: 'open the Files changed tab' } }),
    failed(4, 'click', { target: 'e99' }, 'Ref e99 not found'),
    ok(5, 'save_progress', { data: {} }, 'Progress saved: PR 1 of 5', 'http://h/pr/1', {
      result: { success: true, description: 'Progress saved: PR 1 of 5', effects: { progress: { data: {} } } },
    }),
  ];

  test('the mechanical fallback says what was found, what failed and where the agent was heading', () => {
    expect(mechanicalSummary(entries)).toBe(
      'FOUND: Screenshot saved: 01_merged-list.png; Progress saved: PR 1 of 5\nGAPS: click failed (Ref e99 not found)\nNEXT: open the Files changed tab',
    );
  });

  test('the summary request shows each step with its outcome, where it left the agent, and the data collected so far', async () => {
    const asked: string[] = [];
    const client = {
      settings: { fastModel: 'claude-haiku-5-5' },
      create: async (request: { messages: Array<{ content: string }> }) => {
        asked.push(request.messages[0]!.content);
        return {
          message: { content: [{ type: 'text', text: 'FOUND: title\nGAPS: none\nNEXT: done' }] },
          usage: { input_tokens: 1, output_tokens: 1 },
        };
      },
    };
    const summarizer = new StepSummarizer(client as never, 'audit', () => {});
    const steps = [
      ok(2, 'click', { target: 'e4' }, 'Clicked [e4] link "PR 1"', 'http://h/pr/1'),
      ok(3, 'extract', { field: 'title', target: 'e9', attribute: 'title' }, 'title = "Fix the cache"', 'http://h/pr/1'),
      failed(4, 'click', { target: 'e50' }, 'e50 is not in the latest page state', 'http://h/pr/1'),
      ...Array.from({ length: 6 }, (_, i) => ok(i + 5, 'scroll', { direction: 'down' }, `Scrolled down (${i + 1})`, 'http://h/pr/1')),
    ];
    await summarizer.update(10, [ok(1, 'goto', { url: 'http://h/list' }, 'Navigated', 'http://h/list'), ...steps], AbortSignal.timeout(1000), {
      title: 'Fix the cache',
    });
    const request = asked[0]!;
    expect(request).toContain('Step 2: click(target="e4") → Clicked [e4] link "PR 1" [now on http://h/pr/1]');
    expect(request).toContain('Step 3: extract(field="title", target="e9", attribute="title") → title = "Fix the cache"');
    expect(request).toContain('Step 4: click(target="e50") → FAILED: e50 is not in the latest page state');
    expect(request).toContain('Data collected so far: {"title":"Fix the cache"}');
  });

  test('every 10 steps the steps older than the last 5 are condensed; without a model client the summary is mechanical', async () => {
    const summarizer = new StepSummarizer(undefined, 'audit', () => {});
    const history = [...entries, ...Array.from({ length: 15 }, (_, i) => ok(i + 6, 'scroll', { direction: 'down' }, `scrolled ${i + 6}`))];
    await summarizer.update(9, history, AbortSignal.timeout(1000));
    expect(summarizer.shown).toEqual([]);
    await summarizer.update(10, history, AbortSignal.timeout(1000));
    expect(summarizer.summarizedThrough).toBe(5);
    expect(summarizer.shown).toEqual([`Steps 2-5:\n${mechanicalSummary(entries)}`]);
    await summarizer.update(20, history, AbortSignal.timeout(1000));
    expect(summarizer.shown.map(s => s.split('\n')[0])).toEqual(['Steps 2-5:', 'Steps 6-15:']);
    expect(summarizer.summarizedThrough).toBe(15);
  });
});

test.describe('run state', () => {
  test('failed URLs, targets blocked after 2 failures, dead ends, exhausted pages; lists are capped with totals', () => {
    const history: HistoryEntry[] = [
      failed(2, 'goto', { url: 'http://h/pr/999' }, 'HTTP 404 at http://h/pr/999'),
      failed(3, 'click', { target: 'e50' }, 'not found'),
      ok(4, 'click', { target: 'e22' }, 'Clicked', 'http://h/pr/1'),
      failed(5, 'click', { target: 'e50' }, 'not found', 'http://h/pr/1'),
      ok(6, 'save_progress', { data: {} }, 'Progress saved', 'http://h/pr/1'),
      ...[7, 8, 9].map(step => ok(step, 'scroll', { direction: 'down' }, 'Scrolled', 'http://h/pr/1', { page: 'the end of pr 1' })),
      ...Array.from({ length: 14 }, (_, i) => ok(10 + i, 'goto', { url: `http://h/page/${i}` }, 'Navigated', `http://h/page/${i}`)),
    ];
    const lines = renderRunState(deriveRunState(history));
    expect(lines).toContainEqual('FAILED URLs (skip these): h/pr/999');
    expect(lines).toContainEqual('BLOCKED targets (failed twice — do not retry): click e50');
    expect(lines).toContainEqual(
      'DEAD ENDS (repeated 3 times on this page while it stayed the same: same URL, text, values and states): scroll {"direction":"down"} on h/pr/1',
    );
    expect(lines).toContainEqual('Exhausted pages (data already saved): h/pr/1');
    const visited = lines.find(l => l.startsWith('Pages visited'))!;
    expect(visited).toMatch(/^Pages visited \(15 in total; last 10 shown\): /);
    expect(visited.endsWith('h/page/13')).toBe(true);
  });

  test('a dead end is an action repeated on one unchanged page state: a page that changes each time is none, and a page that has changed since lists none', () => {
    const months = ['December', 'November', 'October', 'September'].map((month, i) =>
      ok(i + 2, 'click', { target: 'e10' }, 'Clicked [e10] button "Previous month"', 'http://h/date-picker', { page: `calendar at ${month}` }),
    );
    expect(renderRunState(deriveRunState(months)).filter(line => line.startsWith('DEAD ENDS'))).toEqual([]);
    const stuck = [6, 7, 8].map(step =>
      ok(step, 'click', { target: 'e11' }, 'Clicked [e11] button "Save"', 'http://h/date-picker', { page: 'saved form' }),
    );
    // Batched calls after the first ran on pages nobody looked at: they say nothing about the page staying the same.
    const blind = [9, 10, 11].map(step => ok(step, 'click', { target: 'e12' }, 'Clicked [e12] button "Close"', 'http://h/date-picker'));
    const deadEnds = (current?: string) =>
      renderRunState(deriveRunState([...months, ...stuck, ...blind], current)).filter(l => l.startsWith('DEAD ENDS'));
    expect(deadEnds('saved form')).toEqual([
      'DEAD ENDS (repeated 3 times on this page while it stayed the same: same URL, text, values and states): click e11 on h/date-picker',
    ]);
    expect(deadEnds('the form after a field was filled in')).toEqual([]);
  });

  test('an action that changed what the page shows beyond its words (a class, a drawing) is no dead end, however often it is repeated', () => {
    const flagged = [2, 3, 4].map(step =>
      ok(step, 'click', { target: 'c3' }, 'Clicked [c3] — the element changed: class "flag" → "flag flag-raised"', 'http://h/inbox', {
        page: 'inbox',
        result: { success: true, description: 'Clicked', shownChange: 'target' },
      }),
    );
    expect(renderRunState(deriveRunState(flagged, 'inbox')).filter(line => line.startsWith('DEAD ENDS'))).toEqual([]);
  });

  test('a sample still on its first page lists no pages visited: the page state already names it', () => {
    const onePage = [ok(2, 'click', { target: 'e1' }, 'Clicked', 'http://h/a'), ok(3, 'scroll', { direction: 'down' }, 'Scrolled', 'http://h/a#top')];
    expect(renderRunState(deriveRunState(onePage))).toEqual([]);
    expect(renderRunState(deriveRunState([...onePage, ok(4, 'click', { target: 'e2' }, 'Clicked', 'http://h/b')]))).toEqual([
      'Pages visited: h/a, h/b',
    ]);
  });

  test('collected data is in the prompt, cut at 2000 characters with the rest counted', () => {
    const prs = Array.from({ length: 30 }, (_, i) => ({ number: i, title: `Pull request number ${i} with a long enough title` }));
    const message = messageText(
      buildUserMessage({
        step: 16,
        maxSteps: 50,
        pageText: '',
        notices: [],
        accumulated: { prs },
        extracted: {},
        history: { lines: [], stable: true },
        runState: ['Pages visited: h/pr/1'],
        summaries: ['Steps 2-5:\nFOUND: x'],
        lastStep: false,
      }),
    );
    const data = message.slice(message.indexOf('## Data collected so far'), message.indexOf('## Run state'));
    expect(data.length).toBeLessThan(ACCUMULATED_PROMPT_CHARS + 120);
    expect(data).toMatch(/… \[\d+ more characters saved, not shown\]/);
    expect(message).toContain('**Step 16 of 50 — 34 remaining**');
    // The condensed earlier steps open the message, before what changed this step.
    expect(message.indexOf('## Earlier steps (condensed)')).toBeLessThan(message.indexOf('## Current page state'));
  });
});
