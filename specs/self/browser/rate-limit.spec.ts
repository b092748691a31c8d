import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dispatch } from '../../../agent/actions/core/dispatch';
import { ELEMENT_TIMEOUT_MS } from '../../../agent/actions/core/limits';
import { retryAfterSeconds } from '../../../agent/actions/settle/rate-limited';
import { deliverInput } from '../../../agent/actions/settle/settle';
import { installGuards } from '../../../agent/browser/guards';
import { ContextTabs } from '../../../agent/browser/context-tabs';
import { HostRateLimiter } from '../../../agent/browser/rate-limit';
import { FileSlotBook, MemorySlotBook, type SlotBook } from '../../../agent/browser/slot-book';
import { EvidenceStore } from '../../../agent/evidence/store';
import { settings } from '../../../agent/settings';
import { tempDir } from '../helpers/temp';
import { setTimeout as sleep } from 'node:timers/promises';
import { SITE, SITE_HOST } from '../helpers/sites';

const WIDGETS = SITE.widgets;

/** What dispatch needs to run one action on `page`, allowed everywhere, paced only by the context's guards. */
function actionEnv(context: BrowserContext, page: Page, tabs: ContextTabs) {
  const policy = {
    isAllowedUrl: () => true,
    resolvePlaceholders: (t: string) => t,
    inputDir: tempDir(),
    beforeNavigation: async () => {},
    maxDownloadBytes: settings.maxDownloadBytes,
  };
  return {
    page,
    context,
    store: new EvidenceStore(tempDir('bwa-evidence-')),
    signal: new AbortController().signal,
    policy,
    tabs,
    elements: new Map(),
    reader: 'model' as const,
    step: 2,
  };
}

/** Records which hosts asked for a slot; never makes anyone wait. */
class CountingBook implements SlotBook {
  readonly reserved: string[] = [];
  async reserve(host: string): Promise<number> {
    this.reserved.push(host);
    return Date.now();
  }
  async holdUntil(): Promise<void> {}
}

test('two books on one folder (two worker processes) hand out slots at least one interval apart', async () => {
  const dir = tempDir('bwa-slots-');
  const workerA = new FileSlotBook(dir);
  const workerB = new FileSlotBook(dir);
  const interval = 200;
  const slots = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? workerA : workerB).reserve('site.test:4106', interval)));
  const sorted = [...slots].sort((a, b) => a - b);
  for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(interval);
  // Another host has its own schedule.
  const other = await workerA.reserve('other.test', interval);
  expect(other).toBeLessThan(sorted.at(-1)!);
});

test('holdUntil (a 429 with Retry-After) pushes every later slot past it', async () => {
  const book = new FileSlotBook(tempDir('bwa-slots-'));
  const until = Date.now() + 60_000;
  await book.holdUntil('site.test', until);
  expect(await book.reserve('site.test', 100)).toBe(until);
  const memory = new MemorySlotBook();
  await memory.holdUntil('site.test', until);
  expect(await memory.reserve('site.test', 100)).toBe(until);
});

test('a goto that waited is not paced again at the route; any other navigation is', async () => {
  const book = new CountingBook();
  const limiter = new HostRateLimiter({ default: 0.5 }, book);
  await limiter.wait(`${SITE.widgets}/a b#top`, AbortSignal.timeout(5000));
  await limiter.pace(`${SITE.widgets}/a%20b`);
  expect(book.reserved).toEqual([SITE_HOST.widgets]);
  await limiter.pace(`${SITE.widgets}/a%20b`);
  await limiter.pace(`${SITE.widgets}/c`);
  expect(book.reserved).toHaveLength(3);
  // No interval for a host: no slot taken at all.
  await new HostRateLimiter({ 'example.test': 1 }, book).pace(`${SITE.widgets}/c`);
  expect(book.reserved).toHaveLength(3);
});

test('a goto whose request leaves later than half an interval after its slot takes a fresh slot', async () => {
  const book = new CountingBook();
  const limiter = new HostRateLimiter({ default: 0.2 }, book);
  await limiter.wait(`${SITE.widgets}/a`, AbortSignal.timeout(5000));
  await sleep(150);
  await limiter.pace(`${SITE.widgets}/a`);
  // Its slot is stale: the request could land beside the ones paced after it, so it is paced again.
  expect(book.reserved).toHaveLength(2);
});

test('a link click is paced at the context route, like goto', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const book = new CountingBook();
  const limiter = new HostRateLimiter({ [SITE_HOST.widgets]: 0.2 }, book);
  await installGuards(context, {
    isAllowedUrl: () => true,
    dialogPolicy: 'dismiss',
    tabs: new ContextTabs(context, page),
    paceNavigation: url => limiter.pace(url),
  });
  await page.goto(`${WIDGETS}/`);
  expect(book.reserved).toHaveLength(1);
  await page.locator('a[href="/cascading"]').click();
  await page.waitForURL(url => url.pathname !== '/');
  expect(book.reserved).toHaveLength(2);
  await context.close();
});

test('a click whose navigation is held back by the rate limit longer than the click may wait still lands on the new page', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const tabs = new ContextTabs(context, page);
  // Every navigation after the first waits for its slot longer than Playwright's click waits for it to start loading.
  let first = true;
  const slowBook: SlotBook = {
    reserve: async () => (first ? ((first = false), Date.now()) : Date.now() + ELEMENT_TIMEOUT_MS + 1000),
    holdUntil: async () => {},
  };
  const limiter = new HostRateLimiter({ [SITE_HOST.widgets]: 1 }, slowBook);
  await installGuards(context, { isAllowedUrl: () => true, dialogPolicy: 'dismiss', tabs, paceNavigation: url => limiter.pace(url) });
  await page.goto(`${WIDGETS}/`);
  const env = actionEnv(context, page, tabs);
  const result = await dispatch({ name: 'click', args: { target: { css: 'a[href="/cascading"]' } } }, env);
  expect(result, result.error).toMatchObject({ success: true, description: expect.stringContaining('Clicked') });
  expect(page.url()).toBe(`${WIDGETS}/cascading`);
  await context.close();
});

test('an input that times out while the document it asked for is on its way was delivered; one that did nothing still fails', async ({ browser }) => {
  const context = await browser.newContext();
  // The submitted form's document is held until the press has given up waiting for it.
  let release!: () => void;
  const released = new Promise<void>(resolve => (release = resolve));
  await context.route('http://held.test/**', async route => {
    const held = new URL(route.request().url()).pathname === '/next';
    if (held) await released;
    await route.fulfill({ contentType: 'text/html', body: held ? '<h1>Next</h1>' : '<form action="/next"><input name="q"></form>' });
  });
  const page = await context.newPage();
  await page.goto('http://held.test/');
  await deliverInput(page, () => page.locator('input').press('Enter', { timeout: 3000 }));
  release();
  await expect(page.getByRole('heading', { name: 'Next' })).toBeVisible();
  await expect(deliverInput(page, () => page.locator('#missing').click({ timeout: 300 }))).rejects.toThrow(/Timeout 300ms/);
  await context.close();
});

test('a link that redirects to a download ends its click: no document is left waiting to land', async ({ browser }) => {
  // A real server: the browser follows the redirect itself (a routed 302 reaches Playwright differently).
  const server = http.createServer((req, res) => {
    if (req.url === '/report') return res.writeHead(302, { location: '/report.csv' }).end();
    if (req.url === '/report.csv')
      return res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' }).end('a,b\n');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/report">Report</a>');
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const env = actionEnv(context, page, new ContextTabs(context, page));
    // Shorter than the default: a document left pending would time the click out.
    const result = await dispatch({ name: 'click', args: { target: { role: 'link', name: 'Report' } } }, env, { timeoutMs: 15_000 });
    expect(result, result.error).toMatchObject({ success: true });
  } finally {
    await context.close();
    server.close();
  }
});

/** A file book that records the holds it was given and the slots it handed out. */
class RecordingBook implements SlotBook {
  readonly holds: Array<{ host: string; until: number }> = [];
  readonly slots: Array<{ host: string; slot: number }> = [];
  constructor(private readonly inner: SlotBook) {}
  async reserve(host: string, intervalMs: number): Promise<number> {
    const slot = await this.inner.reserve(host, intervalMs);
    this.slots.push({ host, slot });
    return slot;
  }
  async holdUntil(host: string, until: number): Promise<void> {
    this.holds.push({ host, until });
    await this.inner.holdUntil(host, until);
  }
}

test('a 429 holds the host for every sample sharing the book, even a host the task does not pace', async () => {
  const book = new RecordingBook(new FileSlotBook(tempDir('bwa-slots-')));
  const limiter = new HostRateLimiter({}, book);
  const other = new HostRateLimiter({}, book);
  await limiter.backOff('http://site.test:4106/in/ada', 1);
  expect(book.holds.map(h => h.host)).toEqual(['site.test:4106']);
  // The sample that saw the 429 waits for the slot after the hold, and returns no earlier than that slot.
  await limiter.wait('http://site.test:4106/in/ada', new AbortController().signal);
  const returnedAt = Date.now();
  expect(book.slots.map(s => s.host)).toEqual(['site.test:4106']);
  expect(book.slots[0]!.slot).toBeGreaterThanOrEqual(book.holds[0]!.until);
  expect(returnedAt).toBeGreaterThanOrEqual(book.slots[0]!.slot);
  // A sample in another worker that has not seen a 429 goes on unpaced: it asks for no slot at all.
  await other.wait('http://site.test:4106/in/bob', new AbortController().signal);
  expect(book.slots).toHaveLength(1);
});

test('Retry-After: seconds or an HTTP date, capped at a minute, 1 s when absent or unreadable', () => {
  const now = Date.UTC(2026, 10, 21, 12, 0, 0);
  expect(retryAfterSeconds('3', now)).toBe(3);
  expect(retryAfterSeconds(new Date(now + 5_000).toUTCString(), now)).toBe(5);
  expect(retryAfterSeconds('3600', now)).toBe(60);
  expect(retryAfterSeconds(undefined, now)).toBe(1);
  expect(retryAfterSeconds('soon', now)).toBe(1);
  expect(retryAfterSeconds(new Date(now - 5_000).toUTCString(), now)).toBe(0);
});
