import type { Page, Request } from '@playwright/test';

const QUIET_MS = 500;
const POLL_MS = 100;

/**
 * Resolves once no request has been in flight for half a second. Playwright's "networkidle" load state
 * only describes the document's first load; after that it is always reached, even while a list fetches.
 */
export async function waitForQuietNetwork(page: Page, timeoutMs: number): Promise<void> {
  const inflight = new Set<Request>();
  let lastActivity = Date.now();
  const started = (request: Request) => {
    inflight.add(request);
    lastActivity = Date.now();
  };
  const ended = (request: Request) => {
    inflight.delete(request);
    lastActivity = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    const deadline = Date.now() + timeoutMs;
    while (inflight.size > 0 || Date.now() - lastActivity < QUIET_MS) {
      if (Date.now() >= deadline) throw new Error(`network still busy after ${Math.round(timeoutMs / 1000)}s`);
      await page.waitForTimeout(POLL_MS);
    }
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}
