import { expect, test, WIDGETS } from './harness';
import { setTimeout as sleep } from 'node:timers/promises';

/** A list that shows "Loading…" while it fetches its next batch, then its new count from a second request. */
const LIST_PAGE = `<h1>Catalogue</h1><ul id="list"><li>Item 1</li></ul><p id="status">Showing 1</p><button id="more">Load more</button>
<script>
  document.getElementById('more').addEventListener('click', async () => {
    const status = document.getElementById('status');
    status.textContent = 'Loading…';
    const items = await (await fetch('/__actions/api/items')).json();
    for (const item of items) document.getElementById('list').insertAdjacentHTML('beforeend', '<li>' + item + '</li>');
    const count = await (await fetch('/__actions/api/count')).json();
    status.textContent = 'Showing ' + count;
  });
</script>`;

test.describe('requests an action starts', () => {
  test('a click that fetches the next batch returns once it has loaded: the page shows the batch and its count, not the spinner', async ({
    harness,
    page,
  }) => {
    await page.route(`${WIDGETS}/__actions/api/items`, async route => {
      await sleep(700);
      await route.fulfill({ json: ['Item 2', 'Item 3'] });
    });
    await page.route(`${WIDGETS}/__actions/api/count`, async route => {
      await sleep(300);
      await route.fulfill({ json: 3 });
    });
    await harness.open('list', LIST_PAGE);
    const result = await harness.ok('click', { target: 'Load more' });
    expect(result.description).not.toContain('still loading');
    // Read without auto-waiting: what the next page state would be built from, right now.
    expect(await page.locator('#list > li').count()).toBe(3);
    expect(await page.locator('#status').textContent()).toBe('Showing 3');
  });

  test('a request that does not end holds the action up only so long, and the result says the page was still loading', async ({ harness, page }) => {
    await page.route(`${WIDGETS}/__actions/api/items`, () => {});
    await harness.open('list', LIST_PAGE);
    const result = await harness.ok('click', { target: 'Load more' });
    expect(result.description).toMatch(/^Clicked .*"Load more" \(the page was still loading after 3 s\)$/);
    expect(await page.locator('#status').textContent()).toBe('Loading…');
  });

  test('a request to a host outside the task is not waited for (a tracker pinging on every click)', async ({ harness, page }) => {
    let pinged = false;
    await page.route('http://127.0.0.1:4999/ping', () => {
      pinged = true;
    });
    await harness.open(
      'tracked',
      `<button id="go">Go</button><p id="out"></p><script>
      document.getElementById('go').addEventListener('click', () => { fetch('http://127.0.0.1:4999/ping', { mode: 'no-cors' }).catch(() => {}); document.getElementById('out').textContent = 'Went'; });
    </script>`,
    );
    const result = await harness.ok('click', { target: 'Go' });
    expect(pinged).toBe(true);
    expect(result.description).not.toContain('still loading');
  });

  test('reading the page waits for nothing, even while the page polls its own API', async ({ harness, page }) => {
    await page.route(`${WIDGETS}/__actions/api/poll`, () => {});
    await harness.open('polling', `<h1>Dashboard</h1><script>setInterval(() => fetch('/__actions/api/poll'), 200);</script>`);
    await harness.look();
    const read = await harness.ok('extract', { field: 'title', target: harness.ref('heading', 'Dashboard') });
    expect(read.description).not.toContain('still loading');
  });
});
