import type { Page, Request } from '@playwright/test';

const NETWORK_IDLE_CAP_MS = 3_000;

export interface NavigationWatch {
  happened(): boolean;
  stop(): void;
}

/** Notices a main-frame navigation started by an action (a link, a form, a script), however it began. */
export function watchNavigation(page: Page): NavigationWatch {
  let happened = false;
  const onRequest = (request: Request) => {
    try {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) happened = true;
    } catch {
      // Service-worker requests have no frame.
    }
  };
  const onNavigated = (frame: unknown) => {
    if (frame === page.mainFrame()) happened = true;
  };
  try {
    page.on('request', onRequest);
    page.on('framenavigated', onNavigated);
  } catch {
    // A closed page cannot navigate.
  }
  return {
    happened: () => happened,
    stop: () => {
      page.off('request', onRequest);
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
