import { expect, test, WIDGETS } from './harness';

/** select_option checks a choice where a person looks: the drop-down a page draws over a hidden native select. */
test.describe('drop-downs drawn over hidden selects', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/hidden-select` });
    await harness.look();
  });

  test('choosing in the hidden select the page state lists makes the drop-down the page shows say it', async ({ harness, page }) => {
    const country = harness.ref('combobox', 'Country');
    const result = await harness.ok('select_option', { target: country, value: 'Germany' });
    await expect(page.locator('#result')).toHaveText('Summary: Germany / Select an option');
    await expect(page.locator('#country')).toHaveValue('germany');
    expect(result.description).toBe(
      `Selected "Germany" in [${country}] combobox "Country" through the drop-down the page shows for [${country}] combobox "Country" (the select itself is hidden and the drop-down did not follow it): it says "Germany"`,
    );
  });

  test('the drop-down itself takes the choice: its options are the words that appear when it opens', async ({ harness, page }) => {
    const face = [...harness.observation().refs.values()].filter(node => node.text === 'Select an option' && node.clickable)[1]?.ref ?? '';
    const result = await harness.ok('select_option', { target: face, value: 'Large' });
    await expect(page.locator('#result')).toHaveText('Summary: Select an option / Large');
    await expect(page.locator('#size')).toHaveValue('large');
    expect(result.description).toBe(`Selected "Large" in [${face}] generic "Select an option"`);
  });
});
