import { expect, test, WIDGETS } from './harness';

test.describe('sliders and spinners', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/sliders` });
    await harness.look();
  });

  test('a native range takes a value on its steps; off-step and out-of-range values are refused with the nearest ones', async ({ harness, page }) => {
    const volume = harness.ref('slider', 'Volume');
    const result = await harness.ok('type', { target: volume, text: '75' });
    expect(result.description).toBe(`Set [${volume}] slider "Volume" to 75`);
    await expect(page.locator('#volume-value')).toHaveText('volume = 75');
    const offStep = await harness.act('type', { target: volume, text: '72' });
    expect(offStep.error).toBe(
      `Cannot set [${volume}] slider "Volume" to 72: it moves in steps of 5 from 0 to 100; the nearest values are 70 and 75`,
    );
    const outside = await harness.act('type', { target: volume, text: '120' });
    expect(outside.error).toBe(`Cannot set [${volume}] slider "Volume" to 120: it goes from 0 to 100`);
  });

  test('an ARIA slider is moved by its keys, the long way with Page Up', async ({ harness, page }) => {
    const brightness = harness.ref('slider', 'Brightness');
    const up = await harness.ok('type', { target: brightness, text: '83' });
    expect(up.description).toBe(`Set [${brightness}] slider "Brightness" to 83 (by keyboard)`);
    await expect(page.locator('#brightness-value')).toHaveText('brightness = 83');
    await harness.ok('type', { target: brightness, text: '7' });
    await expect(page.locator('#brightness-value')).toHaveText('brightness = 7');
  });

  test('a slider that ignores keys is dragged to the value', async ({ harness, page }) => {
    const temperature = harness.ref('slider', 'Temperature');
    const result = await harness.ok('type', { target: temperature, text: '26' });
    expect(result.description).toBe(`Set [${temperature}] slider "Temperature" to 26 (by dragging its thumb)`);
    await expect(page.locator('#temperature-value')).toHaveText('temperature = 26');
  });

  test('a slider with named values, and a spinner', async ({ harness, page }) => {
    const shirt = harness.ref('slider', 'T-shirt size');
    const named = await harness.ok('type', { target: shirt, text: 'X-Large' });
    expect(named.description).toBe(`Set [${shirt}] slider "T-shirt size" to 3 ("X-Large") (by keyboard)`);
    await expect(page.locator('#shirt-value')).toHaveText('shirt = X-Large');
    await harness.ok('type', { target: shirt, text: 'small' });
    await expect(page.locator('#shirt-value')).toHaveText('shirt = Small');
    const guests = harness.ref('spinbutton', 'Guests');
    await harness.ok('type', { target: guests, text: '5' });
    await expect(page.locator('#guests-value')).toHaveText('guests = 5');
    const tooMany = await harness.act('type', { target: guests, text: '20' });
    expect(tooMany.error).toBe(`Cannot set [${guests}] spinbutton "Guests" to 20: it goes from 1 to 12`);
  });

  test('a slider whose names hold numbers is aimed at by name; a name it lacks is refused with the names it has', async ({ harness, page }) => {
    const storage = harness.ref('slider', 'Storage');
    const byName = await harness.ok('type', { target: storage, text: '256 GB' });
    expect(byName.description).toBe(`Set [${storage}] slider "Storage" to 2 ("256 GB") (by keyboard)`);
    await expect(page.locator('#storage-value')).toHaveText('storage = 256 GB');
    // A bare number it cannot hold as a position is the name that carries it.
    await harness.ok('type', { target: storage, text: '512' });
    await expect(page.locator('#storage-value')).toHaveText('storage = 512 GB');
    const missing = await harness.act('type', { target: storage, text: '1 TB' });
    expect(missing).toMatchObject({ success: false, infra: false });
    expect(missing.error).toBe(`Could not set [${storage}] slider "Storage" to 1 TB: its values are "64 GB", "128 GB", "256 GB", "512 GB"`);
  });
});

test.describe('drag', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/drag-drop` });
    await harness.look();
  });

  test('a card moves to another column (HTML5 drag and drop)', async ({ harness, page }) => {
    const result = await harness.ok('drag', { target: 'Write tests', to: harness.ref('region', 'Done') });
    expect(result.description).toMatch(
      /^Dragged text "Write tests" onto \[(f\d+)?e\d+\] region "Done" — it is now item 2 of 2 in "Done" \(order now: "Ship v1", "Write tests"\)$/,
    );
    await expect(page.locator('#board-result')).toHaveText('To do: Fix login bug | Doing: Review PR | Done: Ship v1, Write tests');
  });

  test('a list reordered by pointer dragging', async ({ harness, page }) => {
    const result = await harness.ok('drag', { target: 'Dark mode', to: 'Security patch' });
    expect(result.description).toBe(
      'Dragged text "Dark mode" onto text "Security patch" — it is now item 1 of 4 in "Priorities" (order now: "Dark mode", "Security patch", "Billing export", "Onboarding tour")',
    );
    await expect(page.locator('#priorities-result')).toHaveText('Priorities: Dark mode, Security patch, Billing export, Onboarding tour');
  });

  test('a drop the page does not take is a failure that says where the item still is and what was tried', async ({ harness }) => {
    const result = await harness.act('drag', { target: 'Ship v1', to: 'Priorities' });
    expect(result).toMatchObject({ success: false, infra: false });
    expect(result.error).toMatch(
      /^Dragged text "Ship v1" onto text "Priorities" but nothing moved: it is still item 1 of 1 in "Done", at \(\d+, \d+\)\. Tried a mouse drag \(pressed at \(\d+, \d+\), 6 px, 15 steps to \(\d+, \d+\), a pause, released\), then a drag and drop by HTML5 drag events; the page shows nothing new — try dropping onto the list or column itself, or look for move buttons or a menu on the item$/,
    );
  });
});
