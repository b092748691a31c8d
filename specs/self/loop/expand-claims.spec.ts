import { expect, test, type Page } from '@playwright/test';
import { PageStateFocus } from '../../../agent/loop/page-state-focus';
import { observe, type Observation } from '../../../agent/snapshot';
import { longTree, TREE_FILES } from '../../../fixtures/sites/widgets/cases/page-state-claims';

/**
 * `expand` opens what it says it opens: the part asked for is shown from its start, however far down the page it
 * is, and what still does not fit is named in the page state that follows — a claim checked against that
 * observation, never taken on trust.
 */

const FILES = TREE_FILES;
const TREE = longTree.render({ hostname: 'localhost' });

async function look(page: Page, focus: PageStateFocus): Promise<Observation> {
  const observation = await observe(page, focus.forNextLook(page.url()));
  focus.remember(observation);
  return observation;
}

/** The stub printed last in the page state (the tail of a long list). */
function lastStub(observation: Observation): { ref: string; line: string } {
  const lines = observation.text.split('\n').filter(line => line.includes('(collapsed:'));
  const line = lines.at(-1)!;
  return { ref: /\[((?:f\d+)?e\d+)\]/.exec(line)![1]!, line };
}

test('expanding the tail of a long table shows it from its first row; what does not fit is named, and expanding that shows the rest', async ({
  page,
}) => {
  await page.setContent(TREE);
  const focus = new PageStateFocus();
  const first = await look(page, focus);
  const tail = lastStub(first);
  const firstHidden = /"(file-\d+\.c)"/.exec(tail.line)![1]!;
  expect(first.text).not.toContain(`link "${firstHidden}"`);

  expect(focus.expand(tail.ref)).toMatch(
    /opened: its \d+ links, \d+ rows are listed with refs in the next page state, as many as fit \(what does not is named there\)$/,
  );
  const second = await look(page, focus);
  // The part asked for starts right where the stub did: its first row is listed, not only what lies above it.
  expect(second.text).toMatch(new RegExp(`\\[e\\d+\\] link "${firstHidden.replace('.', '\\.')}" → /f/`));
  // Each time, what is still collapsed is named by a stub the page state prints; expanding it goes on from there.
  let current = second;
  let named = 0;
  for (let round = 0; round < 6; round++) {
    const [still] = focus.stillCollapsed();
    if (!still) break;
    named++;
    expect(still).toMatch(
      /^Expanded \[e\d+\] is longer than one page state: still collapsed in it — \[(e\d+)\] \(\d+ links, \d+ rows\)\. Expand that, or find words in it\.$/,
    );
    const rest = /still collapsed in it — \[(e\d+)\]/.exec(still)![1]!;
    expect(current.text).toMatch(new RegExp(`\\[${rest}\\] more \\(collapsed: `));
    focus.expand(rest);
    current = await look(page, focus);
  }
  expect(named).toBeGreaterThan(0);
  expect(current.text).toMatch(new RegExp(`link "file-${FILES - 1}\\.c" → /f/${FILES - 1}`));
  expect(focus.stillCollapsed()).toEqual([]);
});

test('expanding a collapsed navigation opens its nested lists too; nothing is said to be still collapsed when nothing is', async ({ page }) => {
  const groups = Array.from(
    { length: 3 },
    (_, g) =>
      `<li><span>Group ${g}</span><ul>${Array.from({ length: 20 }, (_, i) => `<li><a href="/g${g}/${i}">Topic ${g}.${i}</a></li>`).join('')}</ul></li>`,
  ).join('');
  await page.setContent(
    `<title>Site</title><nav aria-label="Site map"><ul>${groups}</ul></nav><main><h1>Article</h1><p>Some words of the article.</p></main>`,
  );
  const focus = new PageStateFocus();
  const first = await look(page, focus);
  const nav = /\[(e\d+)\] navigation "Site map" \(collapsed: 60 links/.exec(first.text)![1]!;
  focus.expand(nav);
  const second = await look(page, focus);
  for (const [g, i] of [
    [0, 0],
    [1, 10],
    [2, 19],
  ])
    expect(second.text).toContain(`link "Topic ${g}.${i}"`);
  expect(second.text).not.toContain('(collapsed:');
  expect(focus.stillCollapsed()).toEqual([]);
});
