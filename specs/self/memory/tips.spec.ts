import { expect, test } from '@playwright/test';
import { ModelClient } from '../../../agent/decide/model-client';
import { modelSettings } from '../../../agent/decide/model-settings';
import type { ActionLogEntry, Result } from '../../../agent/evidence/result-schema';
import { emptyUsage } from '../../../agent/evidence/result-schema';
import { noMasking } from '../../../agent/secrets/masker';
import { distillPatterns, heuristicPatterns, heuristicWarnings } from '../../../agent/memory/distill';
import { generalLabel, sampleValues } from '../../../agent/memory/route';
import { RunMemory } from '../../../agent/memory/run-memory';
import { startModelServer } from '../../../fixtures/model-server';
import { bundledTask } from '../helpers/agent-env';
import { resultOf } from '../helpers/results';
import { tempDir } from '../helpers/temp';
import { SITE } from '../helpers/sites';

const task = bundledTask('people_profile').spec;
const BASE = `${SITE.people}/people`;

function entry(step: number, name: string, args: Record<string, unknown>, extra: Partial<ActionLogEntry> = {}): ActionLogEntry {
  const url = extra.url_after ?? `${BASE}/${extra.url_before ?? ''}`;
  return {
    step,
    timestamp: 't',
    decider: 'model',
    action: { name, args },
    outcome: { success: true, description: 'ok' },
    url_before: url,
    url_after: url,
    duration_ms: 1,
    ...extra,
  };
}

/** A done profile sample the way a wandering model did it: one failed guess, a hover for nothing, a toggle, a detour. */
function profileRun(username: string, name: string, followers: number): { result: Result; log: ActionLogEntry[] } {
  const page = `${BASE}/${username}`;
  const at = { url_before: page, url_after: page };
  const log: ActionLogEntry[] = [
    entry(1, 'goto', { url: page }, { ...at, decider: 'loop' }),
    entry(2, 'screenshot', { label: 'profile' }, at),
    entry(3, 'extract', { field: 'display_name', target: 'e4' }, { ...at, locator: { role: 'heading', name } }),
    entry(4, 'hover', { target: 'e9' }, { ...at, locator: { role: 'link', name: 'Repositories' } }),
    entry(
      5,
      'click',
      { target: 'css=.stats-toggle' },
      { ...at, outcome: { success: false, description: 'click failed', error: 'no element matches css=.stats-toggle' } },
    ),
    entry(6, 'click', { target: 'e20' }, { ...at, locator: { text: 'Profile stats' } }),
    entry(7, 'click', { target: 'e20' }, { ...at, locator: { text: 'Profile stats' } }),
    entry(8, 'click', { target: 'e21' }, { ...at, locator: { text: 'Profile stats' } }),
    entry(
      9,
      'click',
      { target: 'e30' },
      { url_before: page, url_after: `${page}/analytical-engine`, locator: { role: 'link', name: `${username}/analytical-engine` } },
    ),
    entry(10, 'go_back', {}, { url_before: `${page}/analytical-engine`, url_after: page }),
    entry(
      11,
      'extract',
      { field: 'followers', target: 'e40', pattern: '([\\d,]+) followers' },
      { ...at, locator: { text: `${followers.toLocaleString('en-US')} followers` } },
    ),
    entry(12, 'done', { extracted: {} }, at),
  ];
  const result = resultOf({
    sample_id: username,
    input: { sample_id: username, username },
    extracted: {
      display_name: { value: name, provenance: { source: 'dom', step: 3, at: 't' } },
      followers: { value: followers, provenance: { source: 'dom', step: 11, at: 't' } },
    },
  });
  return { result, log };
}

test('a done sample teaches the steps that counted without its failed guess, idle hover, toggle or detour — and calls them neither efficient nor a route that worked', () => {
  const { result, log } = profileRun('ada', 'Ada Lovelace', 1234);
  const [pattern] = heuristicPatterns(task, result, log);
  // Its targets stay, in words that hold on any profile: what the sample read is named by its field.
  expect(pattern!.tip).toBe(
    'Steps kept from a sample with 6 failed, undone or idle steps (5 actions, never walked as they stand): screenshot "profile" → read display_name from heading showing <display_name> → click the text "Profile stats" → read followers from the text "<followers> followers" → done',
  );
  for (const value of ['ada', 'Lovelace', '1,234', '1234', 'css=', 'e20', 'Repositories', 'analytical-engine', 'no detours', 'worked'])
    expect(pattern!.tip).not.toContain(value);
});

test('only a route walked without failed, undone or idle steps is called efficient', () => {
  const { result, log } = profileRun('ada', 'Ada Lovelace', 1234);
  const clean = log.filter(entry => [1, 2, 3, 6, 11, 12].includes(entry.step));
  expect(heuristicPatterns(task, result, clean)[0]!.tip).toMatch(/^Efficient route \(5 actions, no detours\): screenshot "profile" → /);
});

test('a tip keeps the targets that made the route work in page-independent words, and no value the sample read, stated or saw', () => {
  const page = `${BASE}/ada`;
  const at = { url_before: page, url_after: page };
  const log: ActionLogEntry[] = [
    entry(1, 'goto', { url: page }, { ...at, decider: 'loop' }),
    entry(2, 'click', { target: 'e8' }, { ...at, locator: { role: 'link', name: 'Contact info' } }),
    entry(3, 'click', { target: 'e9' }, { ...at, locator: { role: 'link', name: 'Call +1 415 555 0134' } }),
    // A control the snapshot lacked: its locator is a CSS path, what the page state showed of it is its icon.
    entry(
      4,
      'click',
      { target: 'c2' },
      { ...at, locator: { css: 'ul > li:nth-of-type(3) > span' }, target_seen: { role: 'clickable', hint: 'reply' } },
    ),
    entry(5, 'click', { target: 'e12' }, { ...at, locator: { role: 'link', name: '12 comments' } }),
    entry(6, 'save_progress', { data: { manager: 'Grace Hopper' } }, at),
    entry(7, 'click', { target: 'e14' }, { ...at, locator: { role: 'link', name: 'Grace Hopper' } }),
    entry(8, 'goto', { url: `${BASE}/ada/orders/48213?tab=2` }, { url_before: page, url_after: `${BASE}/ada/orders/48213?tab=2` }),
    entry(9, 'extract', { field: 'display_name', target: 'e4' }, { ...at, locator: { role: 'heading', name: 'Ada Lovelace' } }),
    entry(10, 'done', { extracted: {} }, at),
  ];
  const result = {
    sample_id: 'ada',
    attempt: 0,
    status: 'done',
    error: null,
    input: { sample_id: 'ada', username: 'ada' },
    extracted: { display_name: { value: 'Ada Lovelace', provenance: { source: 'dom', step: 9, at: 't' } } },
    usage: emptyUsage(),
  } as unknown as Result;
  const tip = heuristicPatterns(task, result, log)[0]!.tip;
  expect(tip).toBe(
    'Efficient route (9 actions, no detours): click link "Contact info" → click link "Call <phone>" → click clickable with icon "reply" → click link "<n> comments" → save progress → click link → go to http://127.0.0.1:4101/people/{{username}}/orders/<n>?tab=2 → read display_name from heading showing <display_name> → done',
  );
  for (const value of ['415', '555', '0134', 'Grace', 'Hopper', '12 comments', '48213', 'css', 'nth-of-type', 'Lovelace'])
    expect(tip).not.toContain(value);
});

test('the same route learned on two samples is one tip held on 2 samples, listed first; warnings carry no values either', async () => {
  const memory = new RunMemory(tempDir('bwa-tips-'));
  for (const [user, name, followers] of [
    ['ada', 'Ada Lovelace', 1234],
    ['grace', 'Grace Hopper', 52],
  ] as const) {
    const { result, log } = profileRun(user, name, followers);
    await memory.addPatterns(heuristicPatterns(task, result, log));
  }
  const failed = profileRun('linus', 'Linus T', 9);
  failed.log[0] = {
    ...failed.log[0]!,
    outcome: { success: false, description: 'HTTP 500', error: 'HTTP 500 at http://127.0.0.1:4101/people/linus' },
  };
  const warnings = heuristicWarnings(task, { ...failed.result, status: 'failed', error: 'the start page failed' }, failed.log);
  expect(warnings.map(w => w.warning)).toEqual([
    'go to http://127.0.0.1:4101/people/{{username}} failed: HTTP 500 at http://127.0.0.1:4101/people/{{username}}',
    'ended failed: the start page failed',
  ]);
  await memory.addWarnings(warnings);
  const hints = memory.hints('people_profile', task.goal);
  expect(hints[0]).toMatch(
    /^Steps kept from a sample with 6 failed, undone or idle steps \(5 actions, never walked as they stand\): .* \(held on 2 samples\)$/,
  );
  expect(hints.slice(1).sort()).toEqual([
    'Warning (127.0.0.1:4101): ended failed: the start page failed (seen on 1 sample)',
    'Warning (127.0.0.1:4101): go to http://127.0.0.1:4101/people/{{username}} failed: HTTP 500 at http://127.0.0.1:4101/people/{{username}} (seen on 1 sample)',
  ]);
  expect(hints.join('\n')).not.toMatch(/ada|grace|linus/i);
});

test("distilled tips: a known tip repeated word for word counts again; tips with values (its own or its pages' phone numbers and addresses), selectors or refs are dropped", async () => {
  const server = await startModelServer();
  const saved = { key: process.env.ANTHROPIC_BASE_URL };
  process.env.ANTHROPIC_BASE_URL = server.url;
  try {
    const client = new ModelClient(modelSettings({ AGENT_FAST_MODEL: 'claude-haiku-5-5' } as NodeJS.ProcessEnv), 'test-key', noMasking);
    const known = 'Open "Profile stats" on a profile for the exact follower count';
    server.setDefaultScript('people_profile', {
      text: [
        {
          contains: 'navigation tips',
          answer: [
            `- ${known} (held on 1 sample)`,
            '- Ada Lovelace is in the heading',
            '- Click css=.stats-toggle first',
            '- The [e12] link opens the stats',
            '- The contact page lists +1 415 555 0134 under Phone',
            '- Write to ada@example.org for access',
            'A line that is no tip',
          ].join('\n'),
        },
      ],
    });
    const { result, log } = profileRun('ada', 'Ada Lovelace', 1234);
    const usage = emptyUsage();
    const patterns = await distillPatterns(client, task, result, log, [known], AbortSignal.timeout(10_000), u => Object.assign(usage, u));
    expect(patterns.map(p => p.tip)).toEqual([known]);
    const request = server.requests.find(r => r.kind === 'text')!;
    expect(request.model).toBe('claude-haiku-5-5');
    expect(request.lastUserText).toContain(`Tips already learned on other samples (repeat one word for word if it held here too):\n- ${known}`);
    expect(request.lastUserText).toContain('1. screenshot "profile"\n2. read display_name from heading');
    expect(request.lastUserText).not.toContain('css=');
    // The sample wandered: its kept steps are never passed off as a route that worked.
    expect(request.lastUserText).toContain('its 6 failed, undone or idle steps are left out, so these were never walked as they stand');
    expect(request.lastUserText).not.toMatch(/worked/);
    expect(usage.by_purpose?.memory?.calls).toBe(1);
    const memory = new RunMemory(tempDir('bwa-tips-'));
    await memory.addPatterns([{ ...patterns[0]!, from_sample: 'grace' }, ...patterns]);
    expect(memory.hints('people_profile', task.goal)).toEqual([`${known} (held on 2 samples)`]);
  } finally {
    if (saved.key === undefined) delete process.env.ANTHROPIC_BASE_URL;
    else process.env.ANTHROPIC_BASE_URL = saved.key;
    await server.close();
  }
});

/** The values a wiki sample read, the way the run that wrote `<last_<first_author>>` had them. */
function wikiValues(extracted: Record<string, unknown>) {
  return sampleValues(
    task,
    resultOf({
      sample_id: 'page',
      input: { sample_id: 'page', username: 'page' },
      extracted: Object.fromEntries(Object.entries(extracted).map(([field, value]) => [field, { value, provenance: { source: 'dom', at: 't' } }])),
    }),
  );
}

test('a tip puts placeholders in for whole values only: never inside a field name, an identifier or a placeholder already there', () => {
  const values = wikiValues({ first_author: 'editor', last_editor: 'Ada Lovelace' });
  expect(generalLabel('Edited by Ada Lovelace (editor)', values)).toBe('Edited by <last_editor> (<first_author>)');
  expect(generalLabel('Ada Lovelace', values)).toBe('<last_editor>');
  // The value "editor" inside a field name or a word is never rewritten: such a text is left out of the tip.
  expect(generalLabel('sort by last_editor', values)).toBeUndefined();
  expect(generalLabel('editors list', values)).toBeUndefined();
  // A count is replaced whole, never inside a longer number.
  const counts = wikiValues({ revisions: 92 });
  expect(generalLabel('92 revisions since 1992', counts)).toBe('<revisions> revisions since <n>');
});

test('a tip from two fields with one value names neither field', () => {
  const values = wikiValues({ files_changed: 92, insertions: 92, author: 'admin', committer: 'admin' });
  const label = generalLabel('92 files changed, 92 insertions(+)', values);
  expect(label).toBe('<n> files changed, <n> insertions(+)');
  // A shared word no pattern can say in general words leaves the label out altogether.
  expect(generalLabel('Committed by admin', values)).toBeUndefined();
  for (const field of ['<files_changed>', '<insertions>', '<author>', '<committer>']) expect(label).not.toContain(field);
});

test('a phone, a date or a count only where the text really is one: a time-zone offset is no phone', () => {
  const values = wikiValues({});
  expect(generalLabel('Published 2015-04-30T10:25:00+02:00', values)).toBe('Published <date>');
  expect(generalLabel('Updated 10:25 UTC+02:00', values)).toBe('Updated <time>');
  expect(generalLabel('Times in UTC+01:00', values)).toBe('Times in <zone>');
  expect(generalLabel('Offset +02:00', values)).toBe('Offset <zone>');
  expect(generalLabel('Call +1 415 555 0134', values)).toBe('Call <phone>');
  expect(generalLabel('Call (030) 1234 5678.', values)).toBe('Call <phone>.');
  expect(generalLabel('1,234,567 views on 30/04/2015', values)).toBe('<n> views on <date>');
  expect(generalLabel('Release 2.5 for h264 in Q3', values)).toBe('Release 2.5 for h264 in Q3');
});
