import { expect, test, WIDGETS } from './harness';

test.describe('an action whose effect did not happen is a failure', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/stubborn-controls` });
    await harness.look();
  });

  test('a checkbox the page springs back', async ({ harness, page }) => {
    const box = harness.ref('checkbox', 'Subscribe to updates');
    const result = await harness.act('check', { target: box });
    expect(result).toMatchObject({ success: false, infra: false });
    expect(result.error).toBe(
      `Clicked [${box}] checkbox "Subscribe to updates" but it is still unchecked — the page refused the change; look for a message or a condition near it`,
    );
    await expect(page.locator('#result')).toHaveText('Subscriptions are closed');
  });

  test('a select the page resets', async ({ harness }) => {
    const plan = harness.ref('combobox', 'Plan');
    const result = await harness.act('select_option', { target: plan, value: 'Pro' });
    expect(result).toMatchObject({ success: false, infra: false });
    expect(result.error).toBe(
      `Chose "Pro" in [${plan}] combobox "Plan", but it now shows "Free" selected — the page changed the choice; look for a message near it`,
    );
    const team = await harness.ok('select_option', { target: plan, value: 'Team' });
    expect(team.description).toBe(`Selected "Team" in [${plan}] combobox "Plan"`);
  });

  test('a field that clears itself, one that cuts the text, one that formats it', async ({ harness, page }) => {
    const cleared = await harness.act('type', { target: 'Coupon', text: 'SPRING24' });
    expect(cleared).toMatchObject({ success: false, infra: false });
    expect(cleared.error).toMatch(/"Coupon" did not keep the text: it is empty afterwards — the page cleared or refused the text$/);
    const cut = await harness.act('type', { target: 'Username', text: 'adalovelace' });
    expect(cut.error).toMatch(/"Username" did not keep the text: it took only the first 8 of 11 characters \(its limit is 8\)$/);
    const formatted = await harness.ok('type', { target: 'Phone', text: '5551234567' });
    expect(formatted.description).toMatch(/^Typed "5551234567" into .*"Phone" — it now shows "\(555\) 123-4567"$/);
    await expect(page.locator('#phone')).toHaveValue('(555) 123-4567');
  });

  test('a custom dropdown whose option does nothing', async ({ harness, page }) => {
    const size = harness.ref('combobox', 'Size');
    const result = await harness.act('select_option', { target: size, value: 'Medium' });
    expect(result).toMatchObject({ success: false, infra: false });
    expect(result.error).toBe(
      `Clicked option "Medium" in [${size}] combobox "Size", but it does not show as chosen (the control shows "Choose a size") — open it again and look at its options, or try the keyboard (ArrowDown, Enter)`,
    );
    await expect(page.locator('#size')).toHaveText('Choose a size');
  });

  test('a list box option the page refuses is a failure naming what is selected; an option named as the target is chosen in its list', async ({
    harness,
    page,
  }) => {
    const colour = harness.ref('listbox', 'Colour');
    const refused = await harness.act('select_option', { target: colour, value: 'Red' });
    expect(refused).toMatchObject({ success: false, infra: false });
    expect(refused.error).toBe(
      `Clicked option "Red" in [${colour}] listbox "Colour", but it does not show as chosen ("Black" is selected) — open it again and look at its options, or try the keyboard (ArrowDown, Enter)`,
    );
    await expect(page.locator('#result')).toHaveText('Red is sold out');
    const white = harness.ref('option', 'White');
    const chosen = await harness.ok('select_option', { target: white, value: 'White' });
    expect(chosen.description).toBe(`Selected "White" in the list of [${white}] option "White"`);
    await expect(page.locator('#result')).toHaveText('Colour: White');
  });

  test('upload says which files the field now holds', async ({ harness }) => {
    await harness.open('attach', '<label>Receipt <input type="file" id="f" multiple></label>');
    const result = await harness.ok('upload', { target: 'Receipt', files: ['receipt.txt'] });
    expect(result.description).toMatch(/^Attached receipt\.txt to .*"Receipt" — it now holds receipt\.txt$/);
  });
});

test.describe('a control the page redraws as a new element on every change', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/rerendered-controls` });
    await harness.look();
  });

  test('a select and a checkbox redrawn after the change are checked in their new element', async ({ harness, page }) => {
    const month = harness.ref('combobox', 'Month');
    const chosen = await harness.act('select_option', { target: month, value: 'April' });
    expect(chosen).toMatchObject({ success: true });
    expect(chosen.description).toBe(`Selected "April" in [${month}] combobox "Month"`);
    await expect(page.locator('#result')).toHaveText('Month: April');
    // The ref named the element that was replaced: the redraw is what the test is about.
    expect(await page.getByRef(month).count()).toBe(0);

    await harness.look();
    const copy = harness.ref('checkbox', 'Email me a copy');
    const ticked = await harness.act('check', { target: copy });
    expect(ticked, ticked.error).toMatchObject({ success: true });
    expect(ticked.description).toBe(`Checked [${copy}] checkbox "Email me a copy"`);
    await expect(page.locator('#result')).toHaveText('Copy: true');
  });

  test('a redrawn select that refuses the choice is still a failure naming what it shows', async ({ harness, page }) => {
    const tier = harness.ref('combobox', 'Tier');
    const refused = await harness.act('select_option', { target: tier, value: 'Gold' });
    expect(refused).toMatchObject({ success: false, infra: false });
    expect(refused.error).toBe(
      `Chose "Gold" in [${tier}] combobox "Tier", but it now shows "Silver" selected — the page changed the choice; look for a message near it`,
    );
    await expect(page.locator('#result')).toHaveText('Gold is closed');
  });
});
