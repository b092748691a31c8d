import type { ContextTabs } from '../../../agent/browser/context-tabs';
import { pageViewer } from '../../../agent/loop/view';
import { defaultTokenBudget, isInteractiveRole, type Observation } from '../../../agent/snapshot';
import type { TaskSpec } from '../../../agent/task/schema';
import { OVERFLOW_NAV_LINKS, OVERFLOW_ROWS } from '../../../fixtures/sites/widgets/cases/page-state-forms';
import { expect, test, WIDGETS, type ActionHarness } from '../actions/harness';
import { SITE } from '../helpers/sites';

/**
 * What a person could use on the widget lab's perception pages is in the page state, with a ref the action
 * layer resolves: each case fails without the perception it names (page-side facts, inline lines, stubs,
 * anchors, typed inputs, side-effect-free observation).
 */

async function lookAt(harness: ActionHarness, slug: string, options: { keywords?: string[] } = {}): Promise<string> {
  await harness.tabs.active.goto(`${WIDGETS}/${slug}`);
  await harness.look(options);
  return harness.observation().text;
}

/** The ref on the one line matching `pattern` (its first group). */
function refOn(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  expect(match, `no line matches ${pattern} in:\n${text}`).not.toBeNull();
  return match?.[1] as string;
}

async function status(harness: ActionHarness): Promise<string> {
  return (await harness.tabs.active.locator('#status').textContent()) ?? '';
}

function expectEveryControlListedOrStubbed(observation: Observation): void {
  const printed = new Set([...observation.text.matchAll(/\[((?:f\d+)?[ec]\d+)\]/g)].map(match => match[1]));
  const missing = observation.outline.entries.filter(
    ({ node }) =>
      node.ref &&
      (isInteractiveRole(node.role) || node.clickable) &&
      !printed.has(node.ref) &&
      !observation.stubs.some(stub => printed.has(stub.ref) && stub.covers.has(node.ref as string)),
  );
  expect(missing.map(({ node }) => `${node.ref} ${node.role} ${node.name ?? ''}`)).toEqual([]);
}

test.describe('icon-only controls', () => {
  test('every icon control has a line with a ref and a description, and a click through that ref reaches it', async ({ harness }) => {
    const text = await lookAt(harness, 'icon-controls');
    const controls: Array<[string, RegExp]> = [
      ['send', /\[(c\d+)\] clickable icon="send" near="Write a message"/],
      ['archive', /\[(c\d+)\] clickable icon="archive"/],
      ['delete', /\[(e\d+)\] button icon="delete"/],
      ['more', /\[(e\d+)\] clickable "…" icon="more menu"/],
      ['star', /\[(e\d+)\] link icon="star" → #starred/],
      // The text it sits in stays, before it: the byline still says who wrote it and as what.
      ['info', /\[e\d+\] link "Ana Souza" → #author ", Staff writer" \[(c\d+)\] clickable icon="disclaimer info"/],
      ['zoom', /\[(c\d+)\] clickable icon="image"/],
      // Named by its picture's file name, not by its layout classes ("thumb wide").
      ['gallery', /\[(e\d+)\] link icon="image harbour at dusk"[^\n]* → #gallery/],
    ];
    for (const [name, pattern] of controls) {
      await harness.ok('click', { target: refOn(text, pattern) });
      expect(await status(harness)).toBe(`Clicked: ${name}`);
    }
  });

  test('a slider handle without ARIA shows where it sits on its track, and moves by keyboard through its ref', async ({ harness }) => {
    const text = await lookAt(harness, 'icon-controls');
    const handle = refOn(text, /\[(c\d+)\] clickable icon="handle" near="Volume: 30" \(at 30% of its track\)/);
    for (let i = 0; i < 5; i++) await harness.ok('press', { target: handle, key: 'ArrowRight' });
    await harness.look();
    expect(harness.observation().text).toMatch(/clickable icon="handle" near="Volume: 35" \(at 35% of its track\)/);
  });

  test('a tree built from lists tells folders (open or closed) from files', async ({ harness }) => {
    const text = await lookAt(harness, 'icon-controls');
    expect(text).toMatch(/\[e\d+\] listitem \(folder, open\)\n +text "Projects"\n +\[e\d+\] listitem "plan\.txt"\n +\[e\d+\] listitem "budget\.xls"/);
    const archive = refOn(text, /\[(e\d+)\] listitem "Archive" \(folder, closed\)/);
    await harness.ok('click', { target: archive });
    await harness.look();
    expect(harness.observation().text).toMatch(/listitem \(folder, open\)\n +text "Archive"\n +\[e\d+\] listitem "old\.txt"/);
  });
});

test.describe('text as a reader sees it', () => {
  test('a link and a button inside running text keep their refs in place, and act in one step', async ({ harness }) => {
    const text = await lookAt(harness, 'inline-links');
    const line =
      /\[e\d+\] text "Lorem ipsum dolor sit amet, then click on the link" \[(e\d+)\] link "laoreet" → #laoreet "inside the text, or press" \[(e\d+)\] button "show more" "to read on\."/.exec(
        text,
      );
    expect(line, text).not.toBeNull();
    await harness.ok('click', { target: line?.[1] });
    expect(await status(harness)).toBe('Opened: laoreet');
    await harness.ok('click', { target: line?.[2] });
    expect(await status(harness)).toBe('More shown');
  });

  test('a headline, byline and date inside the site header are kept with the logo link; the menu collapses into a stub', async ({ harness }) => {
    const text = await lookAt(harness, 'banner-headline');
    expect(text).toMatch(
      /\[e\d+\] banner \(collapsed: 8 links — "World", "Politics", "Business", …\)\n \[e\d+\] link "Daily Lab" → \/\n \[e\d+\] heading "Council approves harbour budget after long debate" \(level 1\)\n \[e\d+\] text "By Ada Byron"\n \[e\d+\] text "March 3, 2025"\n/,
    );
    expect(text).toContain('text "The committee approved the budget on Tuesday after a long debate about the harbour works."');
    expect(text).not.toContain('"Sport"');
  });

  test('a layout table holding the whole page is read like a page: headline, byline, and the body by whole sentences', async ({ harness }) => {
    const text = await lookAt(harness, 'layout-table');
    expect(text).toMatch(
      /\[e\d+\] heading "Annual harbour report" \(level 1\)\n\[e\d+\] text "by the Harbour Board"\n\[e\d+\] text "Paragraph 1 of the report says the harbour works will take 2 years\. [^"]*\. …" \(\+\d+ chars\)\n/,
    );
    expect(text).toMatch(/\[e\d+\] link "Download the full report" → \/reports\/2024\.pdf/);
    expect(text).not.toMatch(/row "/);
  });

  test('one-character letters, digits and symbols are content: the letter K is clickable through its own ref', async ({ harness }) => {
    const text = await lookAt(harness, 'short-text');
    expect(text).toMatch(/\[e\d+\] text "8"/);
    expect(text).toMatch(/\[e\d+\] text "★"/);
    expect(text).not.toContain('"·"');
    await harness.ok('click', { target: refOn(text, /\[(c\d+)\] clickable "K"/) });
    expect(await status(harness)).toBe('Clicked K');
  });
});

test.describe('form facts', () => {
  test('input types, formats, limits and states are shown; a password only as filled; a textarea as multiline with its exact spaces', async ({
    harness,
  }) => {
    const text = await lookAt(harness, 'typed-inputs');
    for (const line of [
      /\[e\d+\] textbox "Arrival date" type=date \(required\)/,
      /\[e\d+\] textbox "Arrival time" value="07:14" type=time/,
      /\[e\d+\] textbox "Meeting" type=datetime-local/,
      /\[e\d+\] spinbutton "Guests" value="2" type=number min=1 max=8 step=1/,
      /\[e\d+\] textbox "Email" placeholder="name@example.com" type=email/,
      /\[e\d+\] textbox "Phone" placeholder="555-0100" type=tel pattern="\[0-9\]\{3\}-\[0-9\]\{4\}"/,
      /\[e\d+\] textbox "Website" type=url/,
      /\[e\d+\] textbox "Password" value="\*{8}" type=password/,
      /\[e\d+\] button "Passport scan" type=file/,
      /\[e\d+\] slider "Budget slider" value="150" type=range min=0 max=500 step=50/,
      /\[e\d+\] textbox "Room colour" value="#336699" type=color/,
      /\[e\d+\] textbox "Notes" value=" {2}two leading spaces" multiline/,
      /\[e\d+\] textbox "Booking code" value="BK-2291" \(readonly\)/,
      /\[e\d+\] textbox "Voucher" value="none" \(disabled\)/,
    ])
      expect(text).toMatch(line);
    expect(text).not.toContain('hunter22');
  });
});

test.describe('observation has no side effects', () => {
  test('a menu opened by a click is still open, listed with refs, after looking at the page twice', async ({ harness }) => {
    const first = await lookAt(harness, 'open-menu');
    await harness.ok('click', { target: refOn(first, /\[(e\d+)\] button "…" \(collapsed\)/) });
    for (let look = 0; look < 2; look++) {
      await harness.look();
      const text = harness.observation().text;
      expect(text).toMatch(/\[e\d+\] button "…" \(expanded\)/);
      for (const item of ['Rename', 'Duplicate', 'Move to trash']) expect(text).toMatch(new RegExp(`\\[e\\d+\\] menuitem "${item}"`));
    }
    await harness.ok('click', { target: refOn(harness.observation().text, /\[(e\d+)\] menuitem "Duplicate"/) });
  });

  test('a menu opened by hovering is still open, listed with refs, after looking at the page twice', async ({ harness }) => {
    const first = await lookAt(harness, 'open-menu');
    await harness.ok('hover', { target: refOn(first, /\[(e\d+)\] link "Account"/) });
    for (let look = 0; look < 2; look++) {
      await harness.look();
      const text = harness.observation().text;
      expect(text).toMatch(/\[e\d+\] link "Profile" → #profile/);
      expect(text).toMatch(/\[e\d+\] link "Sign out" → #signout/);
    }
  });
});

test.describe('a page built to overflow', () => {
  test(`${OVERFLOW_NAV_LINKS} menu links, ${OVERFLOW_ROWS} matching rows and 300 paragraphs fit the default budget, and nothing is lost for good`, async ({
    harness,
  }) => {
    const text = await lookAt(harness, 'overflow', { keywords: ['invoice'] });
    const observation = harness.observation();
    expect(observation.stats.rawNodes).toBeGreaterThan(20_000);
    expect(observation.stats.estimatedTokens).toBeLessThanOrEqual(defaultTokenBudget());
    expectEveryControlListedOrStubbed(observation);
    expect(text).toMatch(/\[e\d+\] navigation "All accounts" \(collapsed: 400 links/);

    const found = await harness.ok('find', { text: `INV-${OVERFLOW_ROWS}` });
    const row = refOn(found.description, /^\[(e\d+)\] row "INV-3500 \|/m);
    await harness.look({ keywords: ['invoice'] });
    expect(harness.observation().text).toContain(`[${row}] row "INV-${OVERFLOW_ROWS} |`);

    const nav = refOn(harness.observation().text, /\[(e\d+)\] navigation "All accounts" \(collapsed/);
    await harness.ok('expand', { target: nav });
    await harness.look({ keywords: ['invoice'] });
    const opened = harness.observation();
    expect(opened.text).toMatch(/\[e\d+\] link "Account 1" → \/overflow\?account=1/);
    expect(opened.text).toMatch(/\[e\d+\] link "Account 7" → \/overflow\?account=7/);
    expect(opened.stats.estimatedTokens).toBeLessThanOrEqual(defaultTokenBudget());
    expectEveryControlListedOrStubbed(opened);
  });
});

test.describe('bad pages', () => {
  test('an empty body is a page state with its header and no lines, not an error', async ({ harness }) => {
    await harness.open('empty', '');
    await harness.look();
    const { text, stubs } = harness.observation();
    expect(text.split('\n')).toHaveLength(3);
    expect(text).toMatch(/^URL: ".*\/__actions\/empty"\nTitle: "empty"\nScroll: 0\/0 px \(viewport 900\) · \d+ nodes, 0 lines, 0 below the fold$/);
    expect(stubs).toEqual([]);
  });

  test('a page whose snapshot fails gives the agent a page state saying so, from which it can scroll, go back or refresh', async () => {
    const failing = {
      url: () => `${SITE.widgets}/crashed`,
      ariaSnapshotJSON: async () => {
        throw new Error('Target crashed');
      },
      evaluate: async () => {
        throw new Error('Target crashed');
      },
      screenshot: async () => Buffer.alloc(0),
    };
    const view = pageViewer({ task: { keywords: [], goal: 'read the page' } as unknown as TaskSpec });
    const seen = await view({ active: failing, pages: [failing] } as unknown as ContextTabs, 2, new AbortController().signal);
    expect(seen.text).toBe('URL: "http://127.0.0.1:4102/crashed"\n(the page could not be read: "Target crashed" — scroll, go back or refresh)');
    expect(seen.elements.size).toBe(0);
  });
});
