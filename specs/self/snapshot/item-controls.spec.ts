import { expect, test, WIDGETS, type ActionHarness } from '../actions/harness';
import { MAIL_ROWS } from '../../../fixtures/sites/widgets/cases/mail-rows';
import { FEED_POSTS, NEWER_POST } from '../../../fixtures/sites/widgets/cases/post-feed';
import { REORDERED_TOOLBARS } from '../../../fixtures/sites/widgets/cases/reversed-icons';
import { orderAsShown } from '../../../agent/snapshot/visual-order';
import { el } from './helpers';

/**
 * Icon controls that belong to an item (a mail row's star and bin, a post's boost and heart), a calendar's Next that is
 * a plain span, bare slider knobs, toolbars CSS shows in another order: each has a ref in its item's line, its hints
 * name its own item, the page state lists them as the pixels show them, and its ref acts on that element — after a
 * scroll, and after the page drew the item again.
 */

async function status(harness: ActionHarness): Promise<string> {
  return (await harness.tabs.active.locator('#status').textContent()) ?? '';
}

/** The lines of the row whose line holds `words` under it: the row's own line and every line indented under it. */
function rowBlock(text: string, words: string): string[] {
  const lines = text.split('\n');
  const depth = (index: number) => /^ */.exec(lines[index] ?? '')?.[0].length ?? 0;
  const start = lines.findIndex(line => line.includes(words));
  expect(start, `no line holds ${words} in:\n${text}`).toBeGreaterThanOrEqual(0);
  let head = start;
  while (head > 0 && depth(head) >= depth(start)) head--;
  const end = lines.findIndex((_, index) => index > head && depth(index) <= depth(head));
  return lines.slice(head, end === -1 ? undefined : end);
}

function refsOf(lines: readonly string[], pattern: string): string[] {
  return lines.flatMap(line => [...line.matchAll(new RegExp(`\\[([ce]\\d+)\\] ${pattern}`, 'g'))].map(match => match[1] as string));
}

function onlyRef(lines: readonly string[], pattern: string): string {
  const refs = refsOf(lines, pattern);
  expect(refs, `one ${pattern} in:\n${lines.join('\n')}`).toHaveLength(1);
  return refs[0] as string;
}

test.describe('mail rows: a star and a bin in every row', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/mail-rows` });
    await harness.look();
  });

  test("each row's star and bin have refs in the row, name its sender, and act on that row; the starred rows say so", async ({ harness }) => {
    const text = harness.observation().text;
    for (const row of MAIL_ROWS) {
      const block = rowBlock(text, `"${row.from}"`);
      const star = onlyRef(block, `clickable icon="row star"${row.starred ? ' state="starred"' : ''} near="${row.from}"`);
      onlyRef(block, `clickable icon="row bin" near="${row.from}"`);
      await harness.ok('click', { target: star });
      expect(await status(harness)).toBe(`${row.starred ? 'unstarred' : 'starred'} ${row.from}`);
    }
    expect([...text.matchAll(/state="starred"/g)]).toHaveLength(MAIL_ROWS.filter(row => row.starred).length);
  });

  test("a row's ref still names that row's control after the list is drawn again, and never another row's", async ({ harness }) => {
    const text = harness.observation().text;
    const [first, second] = MAIL_ROWS;
    const firstBin = onlyRef(rowBlock(text, `"${first!.from}"`), `clickable icon="row bin"`);
    const secondStar = onlyRef(rowBlock(text, `"${second!.from}"`), `clickable icon="row star"`);
    await harness.ok('click', { target: firstBin });
    expect(await status(harness)).toBe(`deleted ${first!.from}`);
    // The list was drawn again, every row one place up: the ref from the same look reaches the second row's star.
    await harness.ok('click', { target: secondStar });
    expect(await status(harness)).toBe(`unstarred ${second!.from}`);
    await harness.look();
    const after = harness.observation().text;
    expect(onlyRef(rowBlock(after, `"${second!.from}"`), `clickable icon="row star"`)).toBe(secondStar);
    expect(after).not.toContain(`[${firstBin}]`);
  });

  test("an opened message's reply and forward icons have refs; reply opens a form that sends", async ({ harness }) => {
    const row = /\[(e\d+)\] clickable$/.exec(rowBlock(harness.observation().text, `"${MAIL_ROWS[2]!.from}"`)[0] as string)?.[1] as string;
    await harness.ok('click', { target: row });
    await harness.look();
    const text = harness.observation().text;
    const tools = ['back', 'reply', 'forward', 'delete'].map(tool => onlyRef(text.split('\n'), `clickable icon="tool ${tool}"`));
    await harness.ok('click', { target: tools[2] as string });
    expect(await status(harness)).toBe(`forward "${MAIL_ROWS[2]!.topic}"`);
    await harness.ok('click', { target: tools[1] as string });
    await harness.look();
    await harness.ok('type', { target: harness.ref('textbox', `Reply to ${MAIL_ROWS[2]!.from}`), text: 'Fine by me.' });
    await harness.ok('click', { target: harness.ref('button', 'Send') });
    expect(await status(harness)).toBe(`sent to ${MAIL_ROWS[2]!.from}: Fine by me.`);
  });
});

test.describe('a feed scrolling in its own box under an instruction line', () => {
  const ICONS = ['comment', 'boost', 'heart', 'more'];

  /** Every post's four icons are on the post's own line; the instruction line holds none. */
  function expectIconsOnTheirPosts(text: string, posts: ReadonlyArray<{ name: string }>): Map<string, string> {
    const refs = new Map<string, string>();
    expect(text.split('\n').find(line => line.includes('"Boost the post by'))).not.toMatch(/clickable/);
    for (const post of posts) {
      const line = text.split('\n').filter(candidate => candidate.includes(`${post.name} @`));
      for (const icon of ICONS)
        refs.set(`${icon} ${post.name}`, onlyRef(line, `clickable icon="pb ${icon}"(?: state="hearted")? near="${post.name} @`));
    }
    return refs;
  }

  test("each post's icons are on its line before and after the feed scrolls, and each ref acts on its own post", async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/post-feed` });
    await harness.look();
    const before = expectIconsOnTheirPosts(harness.observation().text, FEED_POSTS);
    const feed = /\[(e\d+)\] section \(scrolls:/.exec(harness.observation().text)?.[1] as string;
    await harness.ok('scroll', { direction: 'down', amount: 50, target: feed });
    await harness.look();
    expect(expectIconsOnTheirPosts(harness.observation().text, FEED_POSTS)).toEqual(before);
    for (const post of [FEED_POSTS[0]!, FEED_POSTS[3]!, FEED_POSTS.at(-1)!]) {
      await harness.ok('click', { target: before.get(`boost ${post.name}`) as string });
      expect(await status(harness)).toBe(`boost on the post by ${post.name}`);
    }
  });

  test('after the feed is drawn again with a post on top, each ref still names its own post', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/post-feed` });
    await harness.look();
    const before = expectIconsOnTheirPosts(harness.observation().text, FEED_POSTS);
    await harness.ok('click', { target: harness.ref('button', 'Show 1 new post') });
    // A ref from the look before the redraw: the post it named, one place further down now.
    await harness.ok('click', { target: before.get(`heart ${FEED_POSTS[1]!.name}`) as string });
    expect(await status(harness)).toBe(`heart on the post by ${FEED_POSTS[1]!.name}`);
    await harness.look();
    const after = expectIconsOnTheirPosts(harness.observation().text, [NEWER_POST, ...FEED_POSTS]);
    for (const [icon, ref] of before) expect(after.get(icon), icon).toBe(ref);
    expect(new Set(after.values()).size).toBe(after.size);
  });

  test('in a virtual list drawn anew on every scroll, no ref moves to another post', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/post-feed?window=4` });
    await harness.look();
    const seen = new Map<string, string>();
    const remember = (refs: Map<string, string>) => {
      for (const [icon, ref] of refs) {
        const other = [...seen].find(([otherIcon, otherRef]) => otherRef === ref && otherIcon !== icon);
        expect(other, `${ref} named ${other?.[0]} and now ${icon}`).toBeUndefined();
        seen.set(icon, ref);
      }
    };
    remember(expectIconsOnTheirPosts(harness.observation().text, FEED_POSTS.slice(0, 4)));
    for (let shown = 1; shown <= 3; shown++) {
      await harness.tabs.active.locator('#feed').evaluate((element, top) => element.scrollTo(0, top), shown * 2 * 96);
      await expect(harness.tabs.active.locator('.post').first()).toHaveAttribute('data-post', String(shown * 2));
      await harness.look();
      const posts = FEED_POSTS.slice(shown * 2, shown * 2 + 4);
      const refs = expectIconsOnTheirPosts(harness.observation().text, posts);
      remember(refs);
      await harness.ok('click', { target: refs.get(`boost ${posts[1]!.name}`) as string });
      expect(await status(harness)).toBe(`boost on the post by ${posts[1]!.name}`);
    }
  });
});

test('a calendar whose Next is a plain span: Next has its ref in the header line and pages forward, also after the redraw', async ({
  harness,
  page,
}) => {
  await harness.ok('goto', { url: `${WIDGETS}/month-stepper` });
  await harness.look();
  const header = harness
    .observation()
    .text.split('\n')
    .find(line => line.includes('"March 2021"'));
  expect(header).toMatch(/clickable "Previous" \[e\d+\] clickable "Next" "March 2021"/);
  const next = /\[(e\d+)\] clickable "Next"/.exec(header ?? '')?.[1] as string;
  await harness.ok('click', { target: next });
  // The header was drawn again: the same ref, from the same look, reaches the new Next.
  await harness.ok('click', { target: next });
  await expect(page.locator('.mcal-title')).toHaveText('May 2021');
  await harness.look();
  await harness.ok('click', { target: harness.ref('link', '14') });
  await expect(page.locator('#result')).toHaveText('Pick-up: 14/05/2021');
});

test('bare slider knobs: each has a ref whose near= names its own slider, side by side too; keys move that slider alone', async ({
  harness,
  page,
}) => {
  await harness.ok('goto', { url: `${WIDGETS}/knob-sliders` });
  await harness.look();
  const lines = harness.observation().text.split('\n');
  const volume = onlyRef(lines, 'clickable icon="knob" near="Volume" \\(at 41% of its track\\)');
  const bass = onlyRef(lines, 'clickable icon="knob" near="Bass: 3"');
  const treble = onlyRef(lines, 'clickable icon="knob" near="Treble: 7"');
  await harness.ok('press', { target: treble, key: 'ArrowRight' });
  await expect(page.locator('#treble-readout')).toHaveText('Treble: 8');
  await harness.ok('press', { target: bass, key: 'ArrowLeft' });
  await harness.ok('press', { target: volume, key: 'ArrowUp' });
  await expect(page.locator('#bass-readout')).toHaveText('Bass: 2');
  await expect(page.locator('#treble-readout')).toHaveText('Treble: 8');
  await expect(page.locator('#volume-readout')).toHaveText('Volume: 41');
});

test('toolbars CSS shows in another order (row-reverse, order, float:right) are listed as shown, and each ref is its icon', async ({ harness }) => {
  await harness.ok('goto', { url: `${WIDGETS}/reversed-icons` });
  await harness.look();
  const text = harness.observation().text;
  for (const bar of REORDERED_TOOLBARS) {
    const titles = bar.shown.map(name => `${name[0]!.toUpperCase()}${name.slice(1)}`);
    const positions = titles.map(title => text.indexOf(`clickable "${title}"`));
    expect(positions, `${bar.how}:\n${text}`).toEqual([...positions].sort((a, b) => a - b));
    for (const title of titles) {
      await harness.ok('click', { target: harness.ref('generic', title) });
      expect(await status(harness)).toBe(`${bar.id}: ${title}`);
    }
  }
});

test('a line reads from its right on a right-to-left page; siblings on two lines, or overlapping, keep the document order', () => {
  const icons = (xs: number[], lineHeight = 0) =>
    xs.map((x, i) => el('generic', { ref: `e${i + 1}`, box: { x, y: 10 + i * lineHeight, width: 20, height: 20 } }));
  const order = (items: ReturnType<typeof icons>, rightToLeft = false) => {
    orderAsShown(items, rightToLeft);
    return items.map(item => (typeof item === 'string' ? item : item.ref));
  };
  expect(order(icons([100, 60, 20]))).toEqual(['e3', 'e2', 'e1']);
  expect(order(icons([20, 60, 100]), true)).toEqual(['e3', 'e2', 'e1']);
  expect(order(icons([100, 20], 40))).toEqual(['e1', 'e2']);
  expect(order(icons([30, 20]))).toEqual(['e1', 'e2']);
});
