import { expect, test, WIDGETS } from './harness';

/** Sortable lists whose items hold a grip and a name: the item is the row, and its place is read from the order the page shows. */
test.describe('drag reads the order the page shows', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/sortable-list` });
    await harness.look();
  });

  test('dragging a name inside a row moves the row, and the result says where it is now', async ({ harness, page }) => {
    const result = await harness.ok('drag', { target: 'Publish notes', to: 'Run tests' });
    await expect(page.locator('#result')).toContainText('Steps: Freeze code, Publish notes, Run tests, Tag release');
    expect(result.description).toBe(
      'Dragged text "Publish notes" onto text "Run tests" — it is now item 2 of 4 in "Release steps" (order now: "⠿ Freeze code", "⠿ Publish notes", "⠿ Run tests", "⠿ Tag release")',
    );
  });

  test('a list redrawn after the drop is read again: the item is found by its text', async ({ harness, page }) => {
    const result = await harness.ok('drag', { target: 'Ulysses', to: 'Dune' });
    await expect(page.locator('#result')).toContainText('Books: Ulysses, Dune, Emma');
    expect(result.description).toMatch(
      /— it is now item 1 of 3 in "Reading list" \(order now: "⠿ Ulysses paperback", "⠿ Dune paperback", "⠿ Emma paperback"\)$/,
    );
  });

  test('a drop onto the row itself leaves the order as it was: a failure that says where the item still is', async ({ harness, page }) => {
    const result = await harness.act('drag', { target: 'Tag release', to: 'Tag release' });
    expect(result).toMatchObject({ success: false });
    expect(result.error).toContain('nothing moved: it is still item 3 of 4 in "Release steps"');
    await expect(page.locator('#result')).toContainText('Steps: Freeze code, Run tests, Tag release, Publish notes');
  });
});
