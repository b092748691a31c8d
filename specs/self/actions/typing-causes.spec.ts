import { expect, test, WIDGETS } from './harness';

/** type names why a field cannot take text, in the page's terms, and what to use instead. */
test.describe('type names the real cause', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/field-obstacles` });
    await harness.look();
  });

  test('a field behind a modal dialog (the page behind it inert)', async ({ harness, page }) => {
    const promo = harness.ref('textbox', 'Promo code');
    await harness.ok('click', { target: harness.ref('button', 'Apply gift card') });
    const result = await harness.act('type', { target: promo, text: 'SPRING' });
    expect(result).toMatchObject({ success: false, infra: false });
    expect(result.error).toMatch(
      /^Cannot type into \[e\d+\] textbox "Promo code": another element \(<dialog [^>]*>, part of dialog "Gift card"\) is covering it — close the dialog or overlay first \(its buttons: "Cancel"\)$/,
    );
    await expect(page.locator('#promo')).toHaveValue('');
  });

  test('a field behind an overlay dialog that leaves the page live', async ({ harness, page }) => {
    const message = harness.ref('textbox', 'Gift message');
    await harness.ok('click', { target: harness.ref('button', 'Add gift wrap') });
    const result = await harness.act('type', { target: message, text: 'Happy birthday' });
    expect(result.error).toMatch(
      /^Cannot type into \[e\d+\] textbox "Gift message": another element \(<div class="overlay" id="wrap">, part of dialog "Gift wrap"\) is covering it — close the dialog or overlay first \(its buttons: "Done"\)$/,
    );
    await expect(page.locator('#gift-message')).toHaveValue('');
  });

  test('disabled (by its fieldset) and read-only fields say so', async ({ harness }) => {
    const disabled = await harness.act('type', { target: harness.ref('textbox', 'Company name'), text: 'Acme' });
    expect(disabled.error).toContain(': it is disabled — fill in what it depends on first');
    const readOnly = await harness.act('type', { target: harness.ref('textbox', 'Order number'), text: 'X' });
    expect(readOnly.error).toContain(': it is read-only — its value is set by another control');
  });

  test('text that is not a field says what it is and what to use', async ({ harness }) => {
    const result = await harness.act('type', { target: harness.ref('button', 'Show total'), text: 'x' });
    expect(result.error).toMatch(
      /^Cannot type into \[e\d+\] button "Show total": it is a button, not a text field — click it, or type into a textbox of the page state$/,
    );
  });
});

test.describe('sliders through type', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/range-slider` });
    await harness.look();
  });

  test('span handles with role=slider take a value by their keys', async ({ harness, page }) => {
    const low = harness.ref('slider', 'Minimum price');
    const result = await harness.ok('type', { target: low, text: '250' });
    expect(result.description).toBe(`Set [${low}] slider "Minimum price" to 250 (by keyboard)`);
    await expect(page.locator('#price-text')).toHaveText('$250 – $400');
  });

  test('a bare handle on a track takes the number the text beside it shows, by its keys', async ({ harness, page }) => {
    const handle = [...harness.observation().refs.values()].find(node => node.track !== undefined)?.ref ?? '';
    const result = await harness.ok('type', { target: handle, text: '4' });
    await expect(page.locator('#rating-text')).toHaveText('4');
    expect(result.description).toBe(`Set [${handle}] generic to 4 as the text beside it shows ("Minimum rating: 4 stars"), by keyboard`);
    const along = await harness.ok('type', { target: handle, text: '20%' });
    await expect(page.locator('#rating-text')).toHaveText('1');
    // 20% of a 0–5 track is 1; the handle's centre sits within a pixel of it.
    expect(along.description).toMatch(/^Set \[c\d+\] generic to 2[01]% of its track, by keyboard — beside it: "Minimum rating: 1 stars"$/);
  });
});
