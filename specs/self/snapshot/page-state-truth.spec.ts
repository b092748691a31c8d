import { expect, test } from '@playwright/test';
import { observe, type Observation } from '../../../agent/snapshot';
import { bodyLines } from './helpers';
import { commitOf, renderCommit } from '../../../fixtures/sites/widgets/cases/git-commit';
import { pagingLookalikes, scrollingInbox } from '../../../fixtures/sites/widgets/cases/page-state-claims';
import { answerButtons } from '../../../fixtures/sites/widgets/cases/shown-not-said';

/**
 * The page state says what the page holds and nothing it does not: graphics drawn with table cells are no lines,
 * a collapsed line's examples are its most telling words, every ref is printed once, lists scrolling inside the
 * page say how much they hide, the controls that page forward are told from look-alikes by structure, and the page's
 * fingerprint moves exactly when what it shows does.
 */

/** Refs that start more than one line: a region or a run printed twice. */
function refsPrintedTwice(text: string): string[] {
  const seen = new Map<string, number>();
  for (const line of bodyLines(text)) {
    const ref = /^\s*\[((?:f\d+)?[ec]\d+)\]/.exec(line)?.[1];
    if (ref) seen.set(ref, (seen.get(ref) ?? 0) + 1);
  }
  return [...seen].filter(([, count]) => count > 1).map(([ref]) => ref);
}

const FILES = ['src/parser.c', 'src/parser.h', 'docs/usage.md', 'tests/parser-test.c', 'Makefile'];

/** A git web front end's diffstat: mode, file name, change count and a bar graph drawn as a nested table of empty cells. */
function diffstat(files: readonly string[]): string {
  const bar = (added: number) =>
    `<table summary="file diffstat" width="100%"><tr><td class="add" style="width:${added}%"></td><td class="rem" style="width:5%"></td><td style="width:${95 - added}%"></td></tr></table>`;
  const rows = files.map(
    (file, i) => `<tr><td>-rw-r--r--</td><td><a href="/tree/${file}">${file}</a></td><td>${i * 7 + 3}</td><td class="graph">${bar(i * 10)}</td></tr>`,
  );
  return `<table summary="diffstat">${rows.join('')}</table>`;
}

test.describe('graphics-only rows and cells', () => {
  test('a diffstat row is one line with its file and count; its bar graph, a nested table of empty cells, is no line at all', async ({ page }) => {
    await page.setContent(`<title>commit</title><main><h1>Commit 5eed0001</h1><p>5 files changed.</p>${diffstat(FILES)}</main>`);
    const { text } = await observe(page);
    expect(text).not.toContain('file diffstat');
    FILES.forEach((file, i) => expect(text).toContain(`row "-rw-r--r-- | ${file} | ${i * 7 + 3}"`));
    // No empty column is left where the graph was.
    expect(text).not.toMatch(/row "[^"]*\| "/);
    for (const file of FILES) expect(text).toMatch(new RegExp(`\\[e\\d+\\] link "${file.replace(/\./g, '\\.')}" → /tree/`));
  });

  test('a cell holding words, a value or a control is no graphic: a status icon with its alt text stays', async ({ page }) => {
    await page.setContent(
      `<main><h1>Checks</h1><table><tr><td>build</td><td><img alt="passed" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="12" height="12"></td></tr>
       <tr><td>lint</td><td><table><tr><td><button>Re-run lint</button></td></tr></table></td></tr></table></main>`,
    );
    const { text } = await observe(page);
    expect(text).toContain('passed');
    expect(text).toMatch(/button "Re-run lint"/);
  });

  test('the git-web commit page of the widget lab: one line per diffstat row, no graph lines, no ref printed twice', async ({ page }) => {
    const commit = commitOf('5f19d45d');
    await page.setContent(renderCommit(commit));
    const { text } = await observe(page);
    expect(text).not.toContain('file diffstat');
    expect(text).toContain(`row "${commit.files[0]!.mode} | ${commit.files[0]!.path} | ${commit.files[0]!.added + commit.files[0]!.removed}"`);
    expect(refsPrintedTwice(text)).toEqual([]);
  });
});

test.describe('collapsed lines', () => {
  test("a collapsed region's examples are its most telling words: file names, not the permission bits repeated down it", async ({ page }) => {
    const listing = ['README.md', 'src/engine.c', 'src/engine.h', 'tools/build.sh']
      .map((file, i) => `<p>${i % 2 ? '-rwxr-xr-x' : '-rw-r--r--'}</p><p>${file}</p><p>2025-03-0${i + 1}</p>`)
      .join('');
    await page.setContent(`<main><h1>Repository</h1><p>The repository holds the engine.</p></main><aside aria-label="Files">${listing}</aside>`);
    const { text } = await observe(page);
    expect(text).toMatch(/\[e\d+\] complementary "Files" \(collapsed: 12 texts — "README\.md", "src\/engine\.c", "src\/engine\.h", …\)/);
  });

  test('a collapsed region is printed once, even when its own line is pinned by a task keyword', async ({ page }) => {
    // Mostly links and outside the main content: the diffstat is collapsed as a link list, its name matches a keyword.
    const links = FILES.concat(FILES.map(file => `lib/${file}`)).map(file => `<tr><td><a href="/tree/${file}">${file}</a></td></tr>`);
    await page.setContent(
      `<main><h1>Commit</h1><p>Touches ten files, as the list of changed files says.</p></main><table summary="diffstat">${links.join('')}</table>`,
    );
    const { text } = await observe(page, { keywords: ['diffstat'] });
    expect(text).toMatch(/\[e\d+\] table "diffstat" \(collapsed: /);
    expect(text.match(/\] table "diffstat"/g)).toHaveLength(1);
    expect(refsPrintedTwice(text)).toEqual([]);
  });
});

test('a picture link folded into a twin that is itself folded into an earlier twin keeps its ref on the line', async ({ page }) => {
  const picture = 'data:image/svg+xml,%3Csvg xmlns=%22http://www.w3.org/2000/svg%22 width=%22120%22 height=%2280%22/%3E';
  await page.setContent(
    `<main><h1>News</h1>${'<p>Long report text of the day, with a sentence or two about the council and the harbour.</p>'.repeat(12)}<div><a href="/story">Harbour budget approved</a></div>
     <div><a href="/story"><img alt="Harbour budget approved" src="${picture}" width="120" height="80"></a><a href="/story">Harbour budget approved</a></div></main>`,
  );
  const observation = await observe(page);
  const links = [...observation.refs].filter(([, node]) => node.role === 'link' && node.url?.endsWith('/story')).map(([ref]) => ref);
  expect(links).toHaveLength(3);
  for (const ref of links) expect(observation.text).toContain(`[${ref}]`);
});

test.describe('lists that scroll inside the page', () => {
  test('the list says how many of its items it hides, and the header counts them beside the fold', async ({ page }) => {
    await page.setContent(scrollingInbox.render({ hostname: 'localhost' }));
    const before = await observe(page);
    expect(before.text).toMatch(/\[e\d+\] list "Messages" \(scrolls: 50 of its 60 items hidden \(50 below\)\)/);
    expect(before.text.split('\n')[2]).toMatch(/, 0 below the fold, 50 hidden in scrolling lists$/);
    await page.locator('#box').evaluate(box => (box.scrollTop = 600));
    const after = await observe(page);
    expect(after.text).toMatch(/list "Messages" \(scrolls: 50 of its 60 items hidden \(20 above, 30 below\)\)/);
    // Scrolling inside the list changes what the page shows, though the window did not move.
    expect(after.fingerprint).not.toBe(before.fingerprint);
  });

  test('a list that shows all it holds says nothing', async ({ page }) => {
    await page.setContent(`<ul style="height:300px;overflow-y:auto">${'<li style="height:30px">Message</li>'.repeat(5)}</ul>`);
    const { text } = await observe(page);
    expect(text).not.toContain('scrolls');
    expect(text).not.toContain('hidden in scrolling lists');
  });
});

test.describe('pagination controls', () => {
  /** The names and roles of the refs the observation counts as paging forward. */
  const paging = (observation: Observation) =>
    [...observation.pagination].map(ref => {
      const node = observation.refs.get(ref)!;
      return `${node.role} ${node.name}`;
    });

  test('only the controls of a pager, a paging link and a load-more button page forward — not tabs, a date picker or a form step', async ({
    page,
  }) => {
    await page.route('http://shop.test/**', route =>
      route.fulfill({ contentType: 'text/html', body: pagingLookalikes.render({ hostname: 'shop.test' }) }),
    );
    await page.goto(`http://shop.test/${pagingLookalikes.slug}`);
    const observation = await observe(page);
    expect(paging(observation).sort()).toEqual(['button Load more orders', 'link 1', 'link 2', 'link 3', 'link Next', 'link Older'].sort());
  });

  test('numbered answer buttons, a keypad of digits and a review\'s "Show more" are no pager: nothing on that page pages forward', async ({
    page,
  }) => {
    await page.route('http://quiz.test/**', route =>
      route.fulfill({ contentType: 'text/html', body: answerButtons.render({ hostname: 'quiz.test' }) }),
    );
    await page.goto(`http://quiz.test/${answerButtons.slug}`);
    const observation = await observe(page);
    expect(observation.text).toContain('button "Show more"');
    expect(observation.text).toContain('button "8"');
    expect(paging(observation)).toEqual([]);
  });
});

test.describe('the page fingerprint', () => {
  test('equal for the same page re-rendered, different when a label, a value or a state changes', async ({ page }) => {
    await page.setContent(
      `<main><h1>Calendar</h1><div id="label">December 2026</div><button id="prev" onclick="document.getElementById('label').textContent='November 2026'">Previous month</button>
       <input aria-label="Note"><label><input type="checkbox" id="c"> Remember</label><div id="list"><p>One</p><p>Two</p></div></main>`,
    );
    const first = await observe(page);
    expect((await observe(page)).fingerprint).toBe(first.fingerprint);
    // The same content drawn again from scratch: new elements, maybe new refs, the same page.
    await page.locator('#list').evaluate(list => (list.innerHTML = '<p>One</p><p>Two</p>'));
    expect((await observe(page)).fingerprint).toBe(first.fingerprint);
    await page.click('#prev');
    const moved = await observe(page);
    expect(moved.fingerprint).not.toBe(first.fingerprint);
    await page.getByLabel('Note').fill('x');
    const typed = await observe(page);
    expect(typed.fingerprint).not.toBe(moved.fingerprint);
    await page.locator('#c').check();
    expect((await observe(page)).fingerprint).not.toBe(typed.fingerprint);
  });

  test('different when a name-less control turns on by a class alone: its hint is part of what the page state shows', async ({ page }) => {
    await page.setContent(
      `<main><h1>Inbox</h1><p>Quarterly statement <span class="star" style="cursor:pointer;display:inline-block;width:16px;height:16px"></span></p></main>`,
    );
    const first = await observe(page);
    await page.locator('.star').evaluate(star => star.classList.add('on'));
    const starred = await observe(page);
    expect(starred.text).toContain('state="on"');
    expect(starred.fingerprint).not.toBe(first.fingerprint);
  });
});
