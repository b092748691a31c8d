import type { Page, Request, Response } from '@playwright/test';

const NETWORK_IDLE_CAP_MS = 3_000;

export interface NavigationWatch {
  happened(): boolean;
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
  const isMainDocument = (request: Request) => {
    try {
      return request.isNavigationRequest() && request.frame() === page.mainFrame();
    } catch {
      // Service-worker requests have no frame.
      return false;
    }
  };
  const onRequest = (request: Request) => {
    if (isMainDocument(request)) happened = true;
  };
  const onResponse = (response: Response) => {
    if (!isMainDocument(response.request())) return;
    limited = response.status() === 429 && response.request().method() === 'GET' ? { url: response.url(), retryAfter: response.headers()['retry-after'] } : undefined;
  };
  const onNavigated = (frame: unknown) => {
    if (frame === page.mainFrame()) happened = true;
  };
  try {
    page.on('request', onRequest);
    page.on('response', onResponse);
    page.on('framenavigated', onNavigated);
  } catch {
    // A closed page cannot navigate.
  }
  return {
    happened: () => happened,
    rateLimited: () => limited,
    stop: () => {
      page.off('request', onRequest);
      page.off('response', onResponse);
      page.off('framenavigated', onNavigated);
    },
  };
}

/** Load plus a quiet network, bounded: SPAs that poll forever must not stall the loop. */
export async function settlePage(page: Page, timeoutMs: number): Promise<void> {
  if (page.isClosed()) return;
  const deadline = Date.now() + timeoutMs;
  await page.waitForLoadState('load', { timeout: timeoutMs }).catch(() => {});
  const idleBudget = Math.max(500, Math.min(NETWORK_IDLE_CAP_MS, deadline - Date.now()));
  await page.waitForLoadState('networkidle', { timeout: idleBudget }).catch(() => {});
}
