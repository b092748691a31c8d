import { expect, test, WIDGETS } from './harness';

const POPUP = `${WIDGETS}/widgets-popup-target`;

test.describe('tabs', () => {
  test('a target=_blank link opens a tab that is announced with its URL; switch_tab works in it', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/new-tab` });
    await harness.ok('click', { target: 'Open help in a new tab' });
    await expect.poll(() => harness.tabs.pages.length).toBe(2);
    await harness.tabs.pages[1]!.waitForLoadState();
    expect(harness.announcements()).toContain(`A new tab opened (tab 2: ${POPUP}); use switch_tab to work in it`);
    const switched = await harness.ok('switch_tab', { tab: 2 });
    expect(switched.description).toBe(`Now in tab 2: ${POPUP} (Popup target — Widget lab)`);
    const read = await harness.ok('extract', { field: 'via', target: 'css=#result' });
    expect(read.effects?.extracted?.value).toBe('Opened via: link');
    await harness.ok('switch_tab', { tab: 1 });
    expect(harness.tabs.active.url()).toBe(`${WIDGETS}/new-tab`);
  });

  test('a window.open popup is announced with its URL once it is known', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/new-tab` });
    await harness.ok('click', { target: 'Open help in a popup window' });
    await expect.poll(() => harness.announcements().join('\n')).toContain(`A new tab opened (tab 2: ${POPUP}?via=window.open)`);
  });

  test('a popup that closes itself hands the agent back to the first tab', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/new-tab` });
    await harness.ok('click', { target: 'Open help in a new tab' });
    await expect.poll(() => harness.tabs.pages.length).toBe(2);
    await harness.ok('switch_tab', { tab: 2 });
    await harness.ok('click', { target: 'Close this window' });
    await expect.poll(() => harness.tabs.pages.length).toBe(1);
    expect(harness.tabs.active.url()).toBe(`${WIDGETS}/new-tab`);
    expect(harness.announcements()).toContainEqual(expect.stringContaining('The tab you were working in closed; now working in tab 1'));
  });

  test('switching to a tab that does not exist lists the open ones', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/new-tab` });
    const result = await harness.act('switch_tab', { tab: 3 });
    expect(result).toMatchObject({ success: false, error: `There is no tab 3; open tabs: 1 ${WIDGETS}/new-tab` });
    const zero = await harness.act('switch_tab', { tab: 0 });
    expect(zero.error).toContain('Invalid arguments for switch_tab');
  });
});

test.describe('dialogs answered by policy: accept', () => {
  test.use({ dialogPolicy: 'accept' });

  test('alert, confirm and prompt are answered and recorded; nothing hangs', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/dialogs` });
    await harness.ok('click', { target: 'Show session warning' });
    await expect(page.locator('#result')).toHaveText('Alert dismissed');
    await harness.ok('click', { target: 'Delete draft' });
    await expect(page.locator('#result')).toHaveText('Confirm: accepted');
    await harness.ok('click', { target: 'New folder' });
    await expect(page.locator('#result')).toHaveText('Prompt: Untitled folder');
    expect(harness.announcements()).toEqual([
      'An alert dialog said "Your session will expire in 5 minutes."; it was accepted (dialog policy: accept)',
      'A confirm dialog said "Delete this draft?"; it was accepted (dialog policy: accept)',
      'A prompt dialog said "Name your new folder"; it was accepted (dialog policy: accept)',
    ]);
  });
});

test.describe('dialogs answered by policy: dismiss', () => {
  test.use({ dialogPolicy: 'dismiss' });

  test('confirm and prompt are dismissed; leaving a page with unsaved changes still works', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/dialogs` });
    await harness.ok('click', { target: 'Delete draft' });
    await expect(page.locator('#result')).toHaveText('Confirm: dismissed');
    await harness.ok('click', { target: 'New folder' });
    await expect(page.locator('#result')).toHaveText('Prompt: dismissed');
    await harness.ok('goto', { url: `${WIDGETS}/dialogs/unsaved` });
    await harness.ok('type', { target: 'Note', text: 'draft text' });
    await harness.ok('click', { target: 'Back to dialogs' });
    expect(page.url()).toBe(`${WIDGETS}/dialogs`);
    expect(harness.announcements()).toContain('A beforeunload dialog asked to confirm leaving the page; it was accepted (dialog policy: dismiss)');
  });
});
