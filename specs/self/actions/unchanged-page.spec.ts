import { NOTHING_CHANGED } from '../../../agent/actions/pointer';
import { expect, test, WIDGETS } from './harness';

/** A click says when nothing visible changed — and only then. */
test.describe('click tells when nothing visible changed', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/field-obstacles` });
    await harness.look();
  });

  test('a button that changes nothing says so; one that changes the page does not', async ({ harness, page }) => {
    const sort = await harness.ok('click', { target: harness.ref('button', 'Sort by relevance') });
    expect(sort.description).toBe(`Clicked [${harness.ref('button', 'Sort by relevance')}] button "Sort by relevance"${NOTHING_CHANGED}`);
    const total = await harness.ok('click', { target: harness.ref('button', 'Show total') });
    await expect(page.locator('#result')).toHaveText('Total: $42.00');
    expect(total.description).toBe(`Clicked [${harness.ref('button', 'Show total')}] button "Show total"`);
  });

  test('a click that only focuses a field, opens a dialog or toggles a checkbox is a change', async ({ harness, page }) => {
    expect((await harness.ok('click', { target: harness.ref('textbox', 'Promo code') })).description).not.toContain('nothing visible changed');
    expect((await harness.ok('click', { target: harness.ref('checkbox', 'Invoice to a company') })).description).not.toContain(
      'nothing visible changed',
    );
    expect((await harness.ok('click', { target: harness.ref('button', 'Add gift wrap') })).description).not.toContain('nothing visible changed');
    await expect(page.getByRole('dialog', { name: 'Gift wrap' })).toBeVisible();
  });

  test('a menu that opens by CSS alone (:focus-within) is a change, though the DOM did not change', async ({ harness, page }) => {
    await harness.open(
      'css-menu',
      `<style>.menu ul{display:none}.menu:focus-within ul{display:block}</style>
<div class="menu"><button type="button">Account</button><ul><li><a href="#profile">Profile</a></li></ul></div>`,
    );
    await harness.look();
    const result = await harness.ok('click', { target: harness.ref('button', 'Account') });
    await expect(page.getByRole('link', { name: 'Profile' })).toBeVisible();
    expect(result.description).not.toContain('nothing visible changed');
  });

  test('a page with a canvas never hears that nothing changed: its pixels can change without the DOM', async ({ harness }) => {
    await harness.open('canvas', `<canvas width="200" height="80"></canvas><button type="button" onclick="void 0">Redraw</button>`);
    await harness.look();
    const result = await harness.ok('click', { target: harness.ref('button', 'Redraw') });
    expect(result.description).not.toContain('nothing visible changed');
  });

  test('changes inside a frame count; a click that changes nothing on a page with a frame says so', async ({ harness, page }) => {
    await harness.open(
      'framed',
      `<button type="button">Nothing</button><button type="button" onclick="frames[0].document.body.innerHTML = '<p>Loaded</p>'">Load</button>
<iframe srcdoc="<p>Empty</p>"></iframe>`,
    );
    await harness.look();
    expect((await harness.ok('click', { target: harness.ref('button', 'Load') })).description).not.toContain('nothing visible changed');
    await expect(page.frameLocator('iframe').getByText('Loaded')).toBeVisible();
    expect((await harness.ok('click', { target: harness.ref('button', 'Nothing') })).description).toContain(NOTHING_CHANGED);
  });
});
