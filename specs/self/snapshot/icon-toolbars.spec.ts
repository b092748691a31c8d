import { expect, test, WIDGETS, type ActionHarness } from '../actions/harness';

/**
 * Icon controls drawn by CSS inside repeated items: each has its own ref, a hint from the page's own words (quoted),
 * its state where the page shows one, and the words of its item when its hint repeats; find searches the hints.
 */

async function status(harness: ActionHarness): Promise<string> {
  return (await harness.tabs.active.locator('#status').textContent()) ?? '';
}

function refOn(text: string, pattern: RegExp): string {
  const match = pattern.exec(text);
  expect(match, `no line matches ${pattern} in:\n${text}`).not.toBeNull();
  return match?.[1] as string;
}

test.describe('icon toolbars in repeated items', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/icon-toolbars` });
    await harness.look();
  });

  test("each post's reply, repost and like has its own ref and hint; the replies are told apart by their post", async ({ harness }) => {
    const text = harness.observation().text;
    for (const author of ['Ada Lovelace', 'Grace Hopper', 'Alan Turing']) {
      await harness.ok('click', { target: refOn(text, new RegExp(`\\[(e\\d+)\\] clickable icon="post action reply" near="${author}"`)) });
      expect(await status(harness)).toBe(`reply on the post by ${author}`);
    }
    const reposts = [...text.matchAll(/\[(e\d+)\] clickable "⇄" icon="post action repost"/g)].map(match => match[1] as string);
    expect(reposts).toHaveLength(3);
    await harness.ok('click', { target: reposts[1] as string });
    expect(await status(harness)).toBe('repost on the post by Grace Hopper');
    // The page's own word for the state, quoted; only the post it marks.
    expect([...text.matchAll(/state="liked"/g)]).toHaveLength(1);
    expect(text).toMatch(
      /\[e\d+\] text "A ship in port[^\n]*\n\[e\d+\] text \[e\d+\] clickable icon="post action reply" near="Grace Hopper" \[e\d+\] clickable "⇄"[^\n]*clickable "♥" icon="post action like" state="liked"/,
    );
  });

  test("an inbox row's star shows whether it is starred; archive and delete are told apart by the row", async ({ harness }) => {
    const text = harness.observation().text;
    expect(text).toMatch(/\[c\d+\] clickable icon="star" state="starred" near="Billing"/);
    const star = refOn(text, /\[(c\d+)\] clickable icon="star" near="Team lead"/);
    await harness.ok('click', { target: star });
    expect(await status(harness)).toBe('star on "Planning on Monday"');
    await harness.look();
    expect(harness.observation().text).toContain(`[${star}] clickable icon="star" state="starred" near="Team lead"`);
    await harness.ok('click', { target: refOn(text, /\[(e\d+)\] clickable icon="row trash" near="Ten tips for spring"/) });
    expect(await status(harness)).toBe('delete on "Ten tips for spring"');
  });

  test("a message's Reply and Forward anchors (no href, icon fonts) have hints; find searches hints", async ({ harness }) => {
    const text = harness.observation().text;
    await harness.ok('click', { target: refOn(text, /\[(e\d+)\] clickable icon="tool forward mi"/) });
    expect(await status(harness)).toBe('forward message');
    const found = await harness.ok('find', { text: 'reply' });
    const lines = found.description.split('\n').slice(1);
    expect(lines).toHaveLength(4);
    expect(lines.filter(line => /clickable icon="post action reply" near="(Ada Lovelace|Grace Hopper|Alan Turing)"/.test(line))).toHaveLength(3);
    expect(lines.some(line => /clickable icon="tool reply mi"/.test(line))).toBe(true);
  });

  test('quantity steppers read as "- +" or drawn under a container\'s listener become two controls each', async ({ harness, page }) => {
    const text = harness.observation().text;
    expect(text).not.toContain('"- +"');
    await harness.ok('click', { target: refOn(text, /\[(c\d+)\] clickable "\+"/) });
    await expect(page.locator('#status')).toHaveText('Notebook quantity 2');
    await harness.ok('click', { target: refOn(text, /\[(c\d+)\] clickable "-"/) });
    await expect(page.locator('#status')).toHaveText('Notebook quantity 1');
    await harness.ok('click', { target: refOn(text, /listitem "Pencil set" \[e\d+\] clickable "−"[^\n]*"2" \[(e\d+)\] clickable "\+"/) });
    await expect(page.locator('#status')).toHaveText('Pencil set quantity 3');
  });
});

test('class names in BEM, CSS-module and test-id styles give their words; a generated hash gives none', async ({ harness }) => {
  await harness.open(
    'class-words',
    `<style>.i{display:inline-block;width:18px;height:18px;background:#555;cursor:pointer;margin:4px}</style>
<div class="toolbar"><span class="i toolbar__btn toolbar__btn--archive"></span><span class="i ArchiveButton_root__x7Yq2"></span>
<span class="i" data-testid="mark-unread-button"></span><span class="i a8f3k2"></span></div>`,
  );
  await harness.look();
  const text = harness.observation().text;
  expect(text).toMatch(/\[[ec]\d+\] clickable icon="toolbar archive"\n/);
  expect(text).toMatch(/\[[ec]\d+\] clickable icon="archive root"\n/);
  expect(text).toMatch(/\[[ec]\d+\] clickable icon="mark unread"\n/);
  expect(text).toMatch(/\[[ec]\d+\] clickable$/);
});
