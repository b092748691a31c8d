import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, WIDGETS } from './harness';

test.describe('goto, go_back, refresh', () => {
  test('goto opens an allowed page; go_back and refresh return to it', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/native-select` });
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    const back = await harness.ok('go_back');
    expect(back.description).toContain('/native-select');
    expect(page.url()).toBe(`${WIDGETS}/native-select`);
    await page.selectOption('#shipping', 'two-day');
    const reloaded = await harness.ok('refresh');
    expect(reloaded.description).toMatch(/Reloaded .*native-select \(HTTP 200\)/);
  });

  test('goto refuses other hosts and non-http URLs, without touching the page', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    const outside = await harness.act('goto', { url: 'http://evil.example/steal' });
    expect(outside).toMatchObject({ success: false, infra: false });
    expect(outside.error).toContain("evil.example is outside the task's allowed domains");
    const file = await harness.act('goto', { url: 'file:///etc/passwd' });
    expect(file).toMatchObject({ success: false });
    expect(file.error).toContain('not an http(s) URL');
    const otherPort = await harness.act('goto', { url: 'http://127.0.0.1:4999/' });
    expect(otherPort.error).toContain('127.0.0.1:4999 is outside');
    expect(page.url()).toBe(`${WIDGETS}/modal`);
  });

  test('an HTTP error page is a failed step; 5xx counts as infrastructure', async ({ harness }) => {
    const missing = await harness.act('goto', { url: `${WIDGETS}/no-such-widget` });
    expect(missing).toMatchObject({ success: false, infra: false });
    expect(missing.error).toContain('HTTP 404');
    const broken = await harness.act('goto', { url: `${WIDGETS}/modal?fault=500` });
    expect(broken).toMatchObject({ success: false, infra: true });
  });

  test('a page that answers 429 once is loaded again after its Retry-After, whether goto or a link led there', async ({ harness, page }) => {
    const nonce = Date.now();
    // The browser's own record of the page's requests: the 429, then (after its Retry-After) the one that loaded.
    const seen: Array<{ status: number; at: number; retryAfter?: string }> = [];
    page.on('response', response => {
      if (new URL(response.url()).searchParams.get('n') === String(nonce))
        seen.push({ status: response.status(), at: Date.now(), retryAfter: response.headers()['retry-after'] });
    });
    const viaGoto = await harness.ok('goto', { url: `${WIDGETS}/modal?fault=429-once&n=${nonce}` });
    expect(seen.map(r => [r.status, r.retryAfter])).toEqual([
      [429, '1'],
      [200, undefined],
    ]);
    expect(seen[1]!.at - seen[0]!.at, 'asked again no sooner than Retry-After allowed').toBeGreaterThanOrEqual(1_000);
    expect(viaGoto.description).toMatch(
      /answered HTTP 429 \(rate limited\); waited 1 s as its Retry-After asked and loaded the page again \(HTTP 200\)/,
    );
    await expect(page.getByRole('button', { name: 'Continue to checkout' })).toBeVisible();

    await harness.open('to-limited', `<a href="${WIDGETS}/modal?fault=429-once&n=${nonce}-link">Checkout</a>`);
    await harness.look();
    const viaLink = await harness.ok('click', { target: harness.ref('link', 'Checkout') });
    expect(viaLink.description).toContain('answered HTTP 429');
    await expect(page.getByRole('button', { name: 'Continue to checkout' })).toBeVisible();
  });

  test('a page that keeps answering 429 fails as infrastructure after two more loads, naming the fix', async ({ harness }) => {
    const result = await harness.act('goto', { url: `${WIDGETS}/modal?fault=429` });
    expect(result).toMatchObject({ success: false, infra: true });
    expect(result.error).toMatch(
      /HTTP 429 at .*: still rate limited after waiting 2 s .* and loading the page 2 more times — slow this host down with the task's rate_limits/,
    );
  });

  test('go_back with no history says so', async ({ harness }) => {
    await harness.ok('goto', { url: `${WIDGETS}/modal` });
    const result = await harness.act('go_back');
    expect(result.success).toBe(false);
    expect(result.error).toContain('no previous page');
  });

  test('a connection reset is an infrastructure failure', async ({ harness }) => {
    const result = await harness.act('goto', { url: `${WIDGETS}/modal?fault=reset` });
    expect(result).toMatchObject({ success: false, infra: true });
    expect(result.error).toMatch(/ERR_(CONNECTION_RESET|EMPTY_RESPONSE|CONNECTION_CLOSED)/);
  });
});

test.describe('the context guard', () => {
  test('a link that 302-redirects to another host is blocked and recorded', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/redirect-away` });
    await harness.look();
    const requested: string[] = [];
    page.on('request', request => requested.push(request.url()));
    const result = await harness.act('click', { target: harness.ref('link', 'Continue to partner checkout') });
    expect(result.success).toBe(true);
    expect(harness.announcements()).toContainEqual(expect.stringContaining('Blocked a redirect from 127.0.0.1:4102 to evil.example'));
    expect(page.url()).toBe(`${WIDGETS}/redirect-away`);
    expect(requested.filter(url => url.includes('evil.example'))).toEqual([]);
  });

  test('a link to another host is blocked and the tab stays on its page', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/injection` });
    await harness.ok('click', { target: 'Claim your migration credits' });
    expect(harness.announcements()).toContain("Blocked navigation to evil.example (outside the task's allowed domains)");
    expect(page.url()).toBe(`${WIDGETS}/injection`);
    const version = await harness.ok('extract', { field: 'version', target: 'heading "Version 2.4.0"', pattern: 'Version (\\S+)' });
    expect(version.effects?.extracted?.value).toBe('2.4.0');
  });

  test('goto to an allowed URL that redirects away fails as a refusal, not as infrastructure', async ({ harness }) => {
    const result = await harness.act('goto', { url: `${WIDGETS}/go-away` });
    expect(result).toMatchObject({ success: false, infra: false });
    expect(result.error).toContain("outside the task's allowed domains");
    expect(harness.announcements()).toContainEqual(expect.stringContaining('to evil.example'));
  });

  test('file: links and scripts are blocked and recorded', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/file-link` });
    await harness.look();
    await harness.ok('click', { target: harness.ref('link', 'Open exported settings') });
    await harness.ok('click', { target: 'View settings file' });
    await page.evaluate(() => void window.open('file:///etc/passwd'));
    await expect.poll(() => harness.announcements().filter(a => a.includes('file: URL (file:///etc/passwd)')).length).toBe(3);
    expect(page.url()).toBe(`${WIDGETS}/file-link`);
    expect(harness.tabs.pages).toHaveLength(1);
  });

  test('a window.open popup to another host is blocked and its empty tab closed', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/new-tab` });
    await page.evaluate(() => void window.open('http://evil.example/steal'));
    await expect.poll(() => harness.announcements()).toContainEqual(expect.stringContaining('Blocked navigation to evil.example'));
    await expect.poll(() => harness.tabs.pages.length).toBe(1);
  });

  test('a popup whose first document redirects away is blocked too', async ({ harness, page }) => {
    await harness.ok('goto', { url: `${WIDGETS}/redirect-away` });
    await page.evaluate(() => void window.open('/go-away'));
    await expect
      .poll(() => harness.announcements())
      .toContainEqual(expect.stringContaining('Blocked a redirect from 127.0.0.1:4102 to evil.example'));
  });

  test('an embedded frame that redirects away is stopped without a notice', async ({ harness, page }) => {
    const requested: string[] = [];
    page.on('request', request => requested.push(request.url()));
    const redirected = page.waitForRequest(request => request.url() === `${WIDGETS}/go-away`);
    await harness.open('embeds', '<h1>Partner offers</h1><iframe src="/go-away" title="Offer"></iframe>');
    await redirected;
    await harness.ok('wait', { text: 'Partner offers' });
    expect(requested).toContain(`${WIDGETS}/go-away`);
    expect(requested.filter(url => url.includes('evil.example'))).toEqual([]);
    expect(harness.announcements().filter(a => a.includes('redirect'))).toEqual([]);
  });

  test("a hostile page's scripts cannot reach another host: fetch, XHR, EventSource, a beacon and a WebSocket are refused; its images still load", async ({
    harness,
  }) => {
    // Another host the page may not talk to, counting what reaches it.
    const arrived: string[] = [];
    const elsewhere = http.createServer((req, res) => {
      arrived.push(req.url ?? '');
      if (req.url !== '/logo.gif') return void res.writeHead(200, { 'Access-Control-Allow-Origin': '*' }).end('got it');
      res.writeHead(200, { 'Content-Type': 'image/gif' }).end(GIF);
    });
    elsewhere.on('upgrade', (req, socket) => {
      arrived.push(`upgrade ${req.url}`);
      socket.destroy();
    });
    await new Promise<void>(resolve => elsewhere.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    try {
      await harness.ok('goto', { url: `${WIDGETS}/off-site-requests?to=${host}` });
      await expect(harness.env().page.locator('#sent')).toHaveText('eventsource: refused; fetch: refused; websocket: refused; xhr: refused');
      await expect.poll(() => arrived).toContain('/logo.gif');
      expect(arrived).toEqual(['/logo.gif']);
      const blocked = harness.announcements().filter(a => a.includes(host));
      expect(blocked).toHaveLength(1);
      expect(blocked[0]).toMatch(
        new RegExp(`^Blocked 5 requests the page's scripts made to ${host.replace(/\./g, '\\.')} \\(.+\\): outside the task's allowed domains$`),
      );
      for (const kind of ['fetch', 'xhr', 'eventsource', 'ping', 'websocket']) expect(blocked[0]).toContain(kind);
    } finally {
      elsewhere.close();
    }
  });

  test('a redirect loop on an allowed host fails cleanly', async ({ harness }) => {
    const result = await harness.act('goto', { url: `${WIDGETS}/redirect-loop` });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/redirect/i);
  });
});

/** A 1×1 GIF: the logo the page shows from another host. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
