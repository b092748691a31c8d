import { expect, test, WIDGETS } from './harness';

/**
 * Results true to what the page shows, where its words do not say it (issue 36): a class that turns a flag red, a
 * board drawn on canvases, a console that takes each key, drags that stay or move by position, a subject beside its
 * tag link, a field's written type and value against what the browser holds. Each test reads the page itself.
 */
test.describe('a click whose effect shows in a class or in pixels', () => {
  test('a flag toggled by a class: the result names the class change and counts as a change the page shows', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/flag-inbox` });
    await harness.look();
    const flag = /\[(\S+)\] clickable icon="flag" near="Facilities"/.exec(harness.observation().text)?.[1];
    const result = await harness.ok('click', { target: flag });
    await expect(page.locator('.flag').nth(1)).toHaveClass('flag flag-raised');
    expect(result.description).toBe(`Clicked [${flag}] generic — the element changed: class "flag" → "flag flag-raised"`);
    expect(result.shownChange).toBe('target');
  });

  test('a move on a board drawn on canvases: the result says the drawing changed; a click that changes words says nothing of the kind', async ({
    harness,
    page,
  }) => {
    await harness.ok('goto', { url: `${WIDGETS}/tic-tac-toe` });
    await harness.look();
    const cells = [...harness.observation().text.matchAll(/\[(\S+)\] clickable icon="cell"/g)].map(match => match[1]);
    expect(cells).toHaveLength(9);
    const result = await harness.ok('click', { target: cells[4] });
    // The cross and the computer's answer are pixels: the centre cell's canvas is drawn on, the status says nothing new.
    const drawn = await page
      .locator('.cell canvas')
      .nth(4)
      .evaluate((canvas: HTMLCanvasElement) =>
        canvas
          .getContext('2d')!
          .getImageData(0, 0, 80, 80)
          .data.some(value => value !== 0),
      );
    expect(drawn).toBe(true);
    await expect(page.getByRole('status')).toHaveText('Your move');
    expect(result.description).toBe(`Clicked [${cells[4]}] generic — the drawing on the page changed (canvas pixels)`);
    expect(result.shownChange).toBe('pixels');

    await harness.ok('goto', { url: `${WIDGETS}/answer-buttons` });
    await harness.look();
    const answer = await harness.ok('click', { target: harness.ref('button', '6') });
    await expect(page.getByRole('status')).toHaveText('Pressed 6');
    expect(answer.description).toBe(`Clicked [${harness.ref('button', '6')}] button "6"`);
    expect(answer.shownChange).toBeUndefined();
  });

  test('marks set by a class on unnamed cells: the cell clicked says its new class', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/tic-tac-toe?marks=class` });
    await harness.look();
    const cells = [...harness.observation().text.matchAll(/\[(\S+)\] clickable icon="cell"/g)].map(match => match[1]);
    const result = await harness.ok('click', { target: cells[0] });
    await expect(page.locator('.cell').first()).toHaveClass('cell mark-x');
    expect(result.description).toContain('— the element changed: class "cell" → "cell mark-x"');
    expect(result.shownChange).toBe('target');
  });
});

test.describe('type into a field the page empties as it takes each key', () => {
  test('every key arrived: success, saying what the field and the page show', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/terminal` });
    await harness.look();
    const input = harness.ref('textbox', 'Console input');
    const result = await harness.ok('type', { target: input, text: 'status', slowly: true });
    await expect(page.locator('#prompt')).toHaveText('status');
    await expect(page.locator('#keys')).toHaveValue('');
    expect(result.description).toBe(
      `Typed "status" into [${input}] textbox "Console input" key by key — the field itself shows "" (the page takes what is typed into it); the page now shows "$ status"`,
    );
    await harness.ok('press', { key: 'Enter', target: input });
    await expect(page.locator('#lines')).toContainText('all 3 services running');
  });

  test('a field that drops the text and shows it nowhere is still a failure', async ({ harness }) => {
    await harness.open('dropping-field', `<label>Code <input id="code" oninput="this.value = ''"></label>`);
    await harness.look();
    const result = await harness.act('type', { target: harness.ref('textbox', 'Code'), text: 'XJ-42', slowly: true });
    expect(result.success).toBe(false);
    expect(result.error).toContain('did not keep the text: it is empty afterwards');
  });
});

test.describe('drag says what it tried and what the page shows', () => {
  test.beforeEach(async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/stuck-drag` });
    await harness.look();
  });

  test('a list that refuses every drop: a failure naming both tries, the place it stays and what the page now says', async ({ harness, page }) => {
    const result = await harness.act('drag', { target: 'Hiring plan', to: 'Budget review' });
    await expect(page.locator('#pinned li')).toHaveText(['Budget review', 'Hiring plan', 'Office move']);
    expect(result.success).toBe(false);
    expect(result.error).toMatch(
      /^Dragged text "Hiring plan" onto text "Budget review" but nothing moved: it is still item 2 of 3 in "Pinned", at \(\d+, \d+\)\. Tried a mouse drag \(pressed at \(\d+, \d+\), 6 px, 15 steps to \(\d+, \d+\), a pause, released\), then a drag and drop by HTML5 drag events; the page now says "Pinned items cannot be reordered" — /,
    );
  });

  test('a note that moves by position: success with where it went, though no order changed', async ({ harness, page }) => {
    const before = await page.locator('#note').boundingBox();
    const result = await harness.ok('drag', { target: 'Call the printer', to: 'Later' });
    const after = await page.locator('#note').boundingBox();
    expect(Math.abs(after!.x - before!.x) + Math.abs(after!.y - before!.y)).toBeGreaterThan(50);
    expect(result.description).toMatch(
      /^Dragged text "Call the printer" onto text "Later" — it moved on the page from \(\d+, \d+\) to \(\d+, \d+\) \(its place among its siblings is the same: it moves by position\)$/,
    );
    expect(result.shownChange).toBe('target');
  });
});

test.describe('extract reads what the page shows', () => {
  test('a subject beside its tag link is the subject; a row that starts with its link keeps it; the link reads as itself', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/commit-subject` });
    await harness.look();
    const line = /\[(\S+)\] text "Release 0\.6\.0" \[(\S+)\] link "0\.6\.0"/.exec(harness.observation().text);
    expect(line).not.toBeNull();
    const subject = await harness.ok('extract', { field: 'subject', target: line![1] });
    expect(subject.effects?.extracted?.value).toBe('Release 0.6.0');
    expect(subject.description).toContain('[the control "0.6.0" beside it repeats its words: left out as an element of its own]');
    expect((await harness.ok('extract', { field: 'tag', target: line![2] })).effects?.extracted?.value).toBe('0.6.0');
    const row = /\[(\S+)\] row "Bump parser/.exec(harness.observation().text)![1];
    expect((await harness.ok('extract', { field: 'row', target: row })).effects?.extracted?.value).toBe('Bump parser to 2.1 0.5.9 2026-02-20');
  });

  test("a field's type and value are what the browser holds, with the attribute as written when it says otherwise", async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/field-attributes` });
    await harness.look();
    const nickname = await harness.ok('extract', { field: 'kind', target: harness.ref('textbox', 'Nickname'), attribute: 'type' });
    expect(nickname.effects?.extracted?.value).toBe('text');
    expect(nickname.description).toContain('[what the field holds; its attribute as written says "input"]');
    const mail = await harness.ok('extract', { field: 'kind', target: harness.ref('textbox', 'E-mail'), attribute: 'type' });
    expect(mail.effects?.extracted?.value).toBe('email');
    expect(mail.description).not.toContain('as written');
    const city = await harness.ok('extract', { field: 'city', target: harness.ref('textbox', 'City'), attribute: 'value' });
    expect(city.effects?.extracted?.value).toBe('Lisbon');
    expect(city.description).toContain('its attribute as written says "Porto"');
  });
});
