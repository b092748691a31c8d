import { expect, test, WIDGETS } from './harness';

test.describe('select_option with several options', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/multi-select` });
    await harness.look();
  });

  test('a <select multiple> ends with exactly the options given, and says so', async ({ harness, page }) => {
    const toppings = harness.ref('listbox', 'Toppings');
    const result = await harness.ok('select_option', { target: toppings, value: ['Mushrooms', 'olives'] });
    await expect(page.locator('#toppings-result')).toHaveText('Toppings: Mushrooms, Olives');
    expect(await page.locator('#toppings').evaluate((s: HTMLSelectElement) => [...s.selectedOptions].map(o => o.text))).toEqual([
      'Mushrooms',
      'Olives',
    ]);
    expect(result.description).toBe(`Selected exactly "Mushrooms", "Olives" in [${toppings}] listbox "Toppings" (before: "Ham")`);
    // One value on a multiple select is that set too: the earlier two are cleared.
    await harness.ok('select_option', { target: toppings, value: 'Cheese' });
    await expect(page.locator('#toppings-result')).toHaveText('Toppings: Cheese');
  });

  test('an ARIA listbox with aria-multiselectable gets exactly those options toggled on', async ({ harness, page }) => {
    const days = harness.ref('listbox', 'Delivery days');
    await page.getByRole('option', { name: 'Monday' }).click();
    const result = await harness.ok('select_option', { target: days, value: ['Tuesday', 'Thursday'] });
    await expect(page.locator('#days-result')).toHaveText('Days: Tuesday, Thursday');
    expect(result.description).toBe(`Selected exactly "Tuesday", "Thursday" in [${days}] listbox "Delivery days" (before: "Monday")`);
  });

  test('a tag picker ends with exactly the chips given: the missing ones picked, the others removed', async ({ harness, page }) => {
    const labels = harness.ref('combobox', 'Labels');
    const result = await harness.ok('select_option', { target: labels, value: ['bug', 'Help wanted'] });
    expect(result.description).toBe(`Selected exactly "bug", "help wanted" in [${labels}] combobox "Labels" (before: "bug", "docs")`);
    await expect(page.locator('#labels-result')).toHaveText('Labels: bug, help wanted');
    // One text is the whole set too, as on a <select multiple>.
    await harness.ok('select_option', { target: labels, value: 'security' });
    await expect(page.locator('#labels-result')).toHaveText('Labels: security');
    const missing = await harness.act('select_option', { target: labels, value: ['docs', 'wontfix'] }, { timeoutMs: 20_000 });
    expect(missing).toMatchObject({ success: false, infra: false });
    expect(missing.error).toBe(
      `No option "wontfix" in [${labels}] combobox "Labels"; its options are "bug", "feature", "good first issue", "help wanted" (it now holds "security", "docs")`,
    );
  });

  test('several options on a single-choice select is refused at once', async ({ harness, page }) => {
    const result = await harness.act('select_option', { target: 'Country', value: ['France', 'Spain'] });
    expect(result).toMatchObject({ success: false, infra: false });
    expect(result.error).toBe(`[${harness.ref('combobox', 'Country')}] combobox "Country" takes one option, not 2 — choose one of "France", "Spain"`);
    await expect(page.locator('#country-result')).toHaveText('Country: none');
  });

  test('an option that is not there lists the closest ones of a long list', async ({ harness }) => {
    const result = await harness.act('select_option', { target: 'Country', value: 'Untied States' }, { timeoutMs: 20_000 });
    expect(result).toMatchObject({ success: false, infra: false });
    expect(result.error).toMatch(
      /^No option "Untied States" in \[(f\d+)?e\d+\] combobox "Country"; the closest of its 39 options are "United States", /,
    );
    const several = await harness.act('select_option', { target: 'Toppings', value: ['Cheese', 'Anchovies'] }, { timeoutMs: 20_000 });
    expect(several.error).toContain('No option "Anchovies" in');
  });
});
