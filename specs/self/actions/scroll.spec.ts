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

  test('a lazy feed is followed down the distance asked: one scroll to the end loads every batch and says how often it grew', async ({
    harness,
    page,
  }) => {
    await harness.ok('goto', { url: `${WIDGETS}/infinite-scroll` });
    await expect(page.locator('#feed > li')).toHaveCount(20);
    // The first 20 items end before one screen does: the feed grows, and the scroll goes on to the 900 px asked.
    const one = await harness.ok('scroll', { direction: 'down' });
    expect(one.description).toMatch(/^Scrolled the page down: at 900 of \d+ px \(\d+%\); more content loaded at the end$/);
    const before = await page.locator('#feed > li').count();
    const toEnd = await harness.ok('scroll', { direction: 'down', amount: 50 });
    // 200 items come 20 at a time: one scroll brings in every batch that was still to come.
    await expect(page.locator('#feed > li')).toHaveCount(200);
    await expect(page.getByText('End of list')).toBeVisible();
    const grew = Number(/more content loaded at the end (\d+) times, then it reached the end$/.exec(toEnd.description)?.[1]);
    expect(grew).toBeGreaterThanOrEqual((200 - before) / 20);
    const again = await harness.ok('scroll', { direction: 'down', amount: 50 });
    expect(again.description).toMatch(/\(100%\); reached the end$/);
  });

  test('a feed that never ends is followed only as far as asked, and the report says more may come', async ({ harness, page }) => {
    await harness.open(
      'endless',
      `<h1>Endless</h1><ul id="feed"></ul><script>
      const feed = document.getElementById('feed');
      const add = () => { for (let i = 0; i < 10; i++) { const li = document.createElement('li'); li.style.height = '100px'; li.textContent = 'Post ' + (feed.children.length + 1); feed.append(li); } };
      add();
      addEventListener('scroll', () => { if (innerHeight + scrollY >= document.documentElement.scrollHeight - 50) setTimeout(add, 50); });
    </script>`,
    );
    const three = await harness.ok('scroll', { direction: 'down', amount: 3 });
    expect(three.description).toMatch(/^Scrolled the page down: at 2700 of \d+ px \(\d+%\); more content loaded at the end \d+ times$/);
    const scrolled = await page.evaluate(() => window.scrollY);
    // Three viewports of 900 px, not the whole (endless) feed.
    expect(scrolled).toBe(2_700);
    expect(await page.locator('#feed > li').count()).toBeLessThan(60);
  });

  test('a feed that grows just as the distance asked runs out says to scroll again', async ({ harness }) => {
    await harness.open(
      'exact',
      `<style>body{margin:0}</style><div id="feed"><div style="height:1800px">Post 1</div></div><script>
      addEventListener('scroll', () => { if (innerHeight + scrollY >= document.documentElement.scrollHeight - 2) document.getElementById('feed').insertAdjacentHTML('beforeend', '<div style="height:900px">More</div>'); });
    </script>`,
    );
    const one = await harness.ok('scroll', { direction: 'down' });
    expect(one.description).toBe('Scrolled the page down: at 900 of 1800 px (50%); more content loaded at the end — scroll again to continue');
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
