import { expect, test, WIDGETS } from './harness';

test.describe('extract: exact text and empty reads', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/exact-text` });
  });

  test('exact keeps the spacing, so typing back what was read passes an exact check', async ({ harness, page }) => {
    const tidy = await harness.ok('extract', { field: 'instruction', target: 'textbox "Delivery instruction"' });
    expect(tidy.effects?.extracted?.value).toBe('Ship to Dock 7');
    const exact = await harness.ok('extract', { field: 'instruction', target: 'textbox "Delivery instruction"', exact: true });
    const value = exact.effects?.extracted?.value;
    expect(value).toBe('Ship to  Dock 7 ');
    expect(exact.description).toContain('instruction = "Ship to  Dock 7 "');
    await harness.ok('type', { target: 'Answer', text: String(value) });
    await harness.ok('click', { target: 'Check answer' });
    await expect(page.locator('#result')).toHaveText('Exact match');
  });

  test('exact text of an element keeps its leading, inner and trailing spaces; a pattern keeps them too', async ({ harness }) => {
    const code = await harness.ok('extract', { field: 'code', target: 'css=#code', exact: true });
    expect(code.effects?.extracted?.value).toBe('  AB-12  x ');
    const part = await harness.ok('extract', { field: 'code', target: 'css=#code', exact: true, pattern: '(AB-12\\s+)x' });
    expect(part.effects?.extracted?.value).toBe('AB-12  ');
  });

  test('an empty attribute is a failed read that offers what the element has instead', async ({ harness }) => {
    const alt = await harness.act('extract', { field: 'logo_alt', target: 'css=#logo', attribute: 'alt' });
    expect(alt).toMatchObject({ success: false, infra: false });
    expect(alt.error).toMatch(
      /^"logo_alt": the "alt" attribute of css=#logo is empty; it has title="Acme Corporation logo", src="data:image\/svg\+xml,[^"]{40}…" \(extract with that attribute\)$/,
    );
    const absent = await harness.act('extract', { field: 'logo_label', target: 'css=#logo', attribute: 'aria-label' });
    expect(absent.error).toMatch(/^"logo_label": css=#logo has no "aria-label" attribute; it has /);
    const title = await harness.ok('extract', { field: 'logo_title', target: 'css=#logo', attribute: 'title' });
    expect(title.effects?.extracted?.value).toBe('Acme Corporation logo');
  });

  test('an empty text is a failed read; with missing "null" it is null, said out loud', async ({ harness }) => {
    const note = await harness.act('extract', { field: 'note', target: 'css=#note' });
    expect(note).toMatchObject({ success: false, infra: false });
    expect(note.error).toBe('"note": css=#note has no text; it has aria-label="Reviewer note" (extract with that attribute)');
    const nullable = await harness.ok('extract', { field: 'note', target: 'css=#note', missing: 'null' });
    expect(nullable.effects?.extracted?.value).toBeNull();
    expect(nullable.description).toBe('note = null (empty → null) (from css=#note)');
  });

  test('a list keeps its place for an empty item (null) and fails only when every item is empty', async ({ harness }) => {
    await harness.open(
      'cells',
      '<ul><li class="c">Ada</li><li class="c"></li><li class="c">Grace</li></ul><ul><li class="e"></li><li class="e"> </li></ul>',
    );
    const list = await harness.ok('extract', { field: 'names', target: 'css=.c', all: true });
    expect(list.effects?.extracted?.value).toEqual(['Ada', null, 'Grace']);
    expect(list.description).toContain('(1 of 3 empty → null)');
    const none = await harness.act('extract', { field: 'names', target: 'css=.e', all: true });
    expect(none.error).toContain('has no text');
  });

  test('all with several refs reads each element in the order given, and records no locator (a recipe finds them by value)', async ({ harness }) => {
    await harness.open(
      'refs',
      '<ul><li><a href="#a">analytical-engine</a> Public</li><li><a href="#s">★ 12</a></li><li><a href="#b">bernoulli-numbers</a> Public</li></ul>',
    );
    await harness.look();
    const [first, second] = [harness.ref('link', 'analytical-engine'), harness.ref('link', 'bernoulli-numbers')];
    const read = await harness.ok('extract', { field: 'pinned', target: `${second} ${first}`, all: true });
    expect(read.effects?.extracted?.value).toEqual(['bernoulli-numbers', 'analytical-engine']);
    expect(read.effects?.extracted?.provenance).toMatchObject({ source: 'dom', locator: 'link "bernoulli-numbers" + link "analytical-engine"' });
    expect(read.element).toBeUndefined();
    // Without all, a list of refs is no target.
    expect((await harness.act('extract', { field: 'pinned', target: `${first}, ${second}` })).success).toBe(false);
  });
});
