import { expect, test, WIDGETS } from './harness';

test.describe('scroll', () => {
  test('the page scrolls down and up, reporting position and the ends', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/big-page` });
    const down = await harness.ok('scroll', { direction: 'down' });
    expect(down.description).toMatch(/^Scrolled the page down: at 900 of \d+ px \(\d+%\)$/);
    const bottom = await harness.ok('scroll', { direction: 'down', amount: 50 });
    expect(bottom.description).toMatch(/reached the end$/);
    const top = await harness.ok('scroll', { direction: 'up', amount: 50 });
    expect(top.description).toMatch(/^Scrolled the page up: at 0 of \d+ px \(0%\); at the top$/);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('an infinite list is scrolled until its end marker, saying when more loaded', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/infinite-scroll` });
    await expect(page.locator('#feed > li')).toHaveCount(20);
    const descriptions: string[] = [];
    for (let i = 0; i < 30 && !(await page.getByText('End of list').isVisible()); i++) {
      descriptions.push((await harness.ok('scroll', { direction: 'down', amount: 50 })).description);
    }
    await expect(page.locator('#feed > li')).toHaveCount(200);
    expect(descriptions.some(d => d.includes('more content loaded at the end'))).toBe(true);
    const last = await harness.ok('scroll', { direction: 'down', amount: 50 });
    expect(last.description).toMatch(/reached the end$/);
  });

  test('a load-more list is grown by clicking until the button is gone', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/load-more` });
    for (let i = 0; i < 10 && (await page.locator('#load-more').count()) > 0; i++) {
      await harness.ok('click', { target: 'Load more' });
      await harness.ok('wait', { network_idle: true, seconds: 5 });
    }
    await expect(page.locator('#products > li')).toHaveCount(75);
    const gone = await harness.act('click', { target: 'button "Load more"' });
    expect(gone.error).toContain('No element matches button "Load more"');
  });

  test('a scrollable container is scrolled instead of the page', async ({ harness, page }) => {
    const rows = Array.from({ length: 60 }, (_, i) => `<li>Message ${i + 1}</li>`).join('');
    await harness.open('inbox', `<h1>Inbox</h1><ul id="inbox" style="height:200px;overflow-y:auto;margin:0">${rows}</ul><p id="after">footer</p>`);
    const down = await harness.ok('scroll', { direction: 'down', target: 'Message 1' });
    expect(down.description).toMatch(/^Scrolled text "Message 1" down: at 200 of \d+ px/);
    expect(await page.locator('#inbox').evaluate(el => el.scrollTop)).toBe(200);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const end = await harness.ok('scroll', { direction: 'down', amount: 50, target: 'css=#inbox' });
    expect(end.description).toMatch(/reached the end$/);
  });

  test('an element outside any scrollable container scrolls the page and says so', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/big-page` });
    const result = await harness.ok('scroll', { direction: 'down', target: 'css=h1' });
    expect(result.description).toContain('is not inside a scrollable container, so the page was scrolled down');
  });

  test('invalid directions and amounts are rejected before acting', async ({ harness }) => {
    const sideways = await harness.act('scroll', { direction: 'left' });
    expect(sideways.error).toContain('Invalid arguments for scroll');
    const negative = await harness.act('scroll', { direction: 'down', amount: -2 });
    expect(negative.error).toContain('amount');
  });
});
