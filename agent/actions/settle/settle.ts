import type { Page, Request, Response } from '@playwright/test';

const NETWORK_IDLE_CAP_MS = 3_000;

export interface NavigationWatch {
  happened(): boolean;
  /** A main-document request is out and the page has not committed it (nor has it ended otherwise). */
  inFlight(): boolean;
  /** Resolves once no main-document request is in flight (the caller bounds the wait). */
  landed(): Promise<void>;
  /** The main document's latest response, when it was a 429 to a GET (safe to load again). */
  rateLimited(): RateLimitedDocument | undefined;
  stop(): void;
}

export interface RateLimitedDocument {
  url: string;
  /** The Retry-After header as sent (seconds or an HTTP date), if any. */
  retryAfter?: string;
}

/** Notices a main-frame navigation started by an action (a link, a form, a script), however it began. */
export function watchNavigation(page: Page): NavigationWatch {
  let happened = false;
  let limited: RateLimitedDocument | undefined;
  const pending = new Set<Request>();
  const waiters = new Set<() => void>();
  const wakeIfLanded = () => {
    if (pending.size) return;
    for (const wake of waiters) wake();
    waiters.clear();
  };
  const isMainDocument = (request: Request) => {
    try {
      return request.isNavigationRequest() && request.frame() === page.mainFrame();
    } catch {
      // Service-worker requests have no frame.
      return false;
    }
  };
  const onRequest = (request: Request) => {
    if (!isMainDocument(request)) return;
    happened = true;
    // A redirect is a new request; the one it replaces only "finishes" (this watch listens for commits and failures).
    const replaced = request.redirectedFrom();
    if (replaced) pending.delete(replaced);
    pending.add(request);
  };
  // A document is in flight until the frame commits it; one that never commits (a download, a 204) fails its request.
  const onEnded = (request: Request) => {
    pending.delete(request);
    wakeIfLanded();
  };
  const onResponse = (response: Response) => {
    if (!isMainDocument(response.request())) return;
    limited =
      response.status() === 429 && response.request().method() === 'GET'
        ? { url: response.url(), retryAfter: response.headers()['retry-after'] }
        : undefined;
  };
  const onNavigated = (frame: unknown) => {
    if (frame !== page.mainFrame()) return;
    happened = true;
    pending.clear();
    wakeIfLanded();
  };
  // A tab that closes will not commit anything.
  const onClosed = () => {
    pending.clear();
    wakeIfLanded();
  };
  try {
    page.on('request', onRequest);
    page.on('response', onResponse);
    page.on('requestfailed', onEnded);
    page.on('framenavigated', onNavigated);
    page.on('close', onClosed);
  } catch {
    // A closed page cannot navigate.
  }
  return {
    happened: () => happened,
    rateLimited: () => limited,
    inFlight: () => pending.size > 0,
    landed: () => (pending.size === 0 ? Promise.resolve() : new Promise<void>(resolve => waiters.add(resolve))),
    stop: () => {
      waiters.clear();
      page.off('request', onRequest);
      page.off('response', onResponse);
      page.off('requestfailed', onEnded);
      page.off('framenavigated', onNavigated);
      page.off('close', onClosed);
    },
  };
}

/**
 * Playwright's click and press wait, inside their own timeout, for a navigation they started to commit. A
 * navigation this run holds back for a host's rate limit, or a slow server, can outlast that wait although the
 * input was delivered: a timeout while the page's document request is out is not a failure of the input (the
 * dispatcher waits for the page to land).
 */
export async function deliverInput(page: Page, input: () => Promise<unknown>): Promise<void> {
  const watch = watchNavigation(page);
  try {
    await input();
  } catch (error) {
    if (!(error instanceof Error && error.name === 'TimeoutError' && watch.inFlight())) throw error;
  } finally {
    watch.stop();
  }
}

/** Load plus a quiet network, bounded: SPAs that poll forever must not stall the loop. */
export async function settlePage(page: Page, timeoutMs: number): Promise<void> {
  if (page.isClosed()) return;
  const deadline = Date.now() + timeoutMs;
  await page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => {});
  const idleBudget = Math.max(500, Math.min(NETWORK_IDLE_CAP_MS, deadline - Date.now()));
  await page.waitForLoadState('networkidle', { timeout: idleBudget }).catch(() => {});
}
