import type { Page, Request } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';

/** Data requests an action starts (a "Load more" fetch, an autocomplete lookup); documents are the navigation watch's. */
const DATA_REQUESTS = new Set(['fetch', 'xhr']);
/** A request that answers may start the next one (a list that fetches its count, then its rows): wait this long for it. */
const CHAIN_MS = 150;
const POLL_MS = 50;
/** A page too busy to answer a no-op this fast is not waited on here (the caller's own budget still holds). */
const ROUND_TRIP_CAP_MS = 1_000;

export interface CausedRequests {
  /**
   * Resolves once every data request to the task's sites started since the watch began has ended and none followed
   * within a moment, or when `capMs` runs out (a long poll, a stalled API). True when they all ended.
   */
  settled(capMs: number): Promise<boolean>;
  stop(): void;
}

/**
 * Watches the data requests an action causes, so the page state after it shows what they loaded rather than the
 * spinner in between. Only the task's allowed sites count: a tracker on another host pinging on every click
 * must not hold each action up.
 */
export function watchCausedRequests(page: Page, isAllowedUrl: (url: string) => boolean): CausedRequests {
  const inflight = new Set<Request>();
  let seen = 0;
  let lastEnded = 0;
  const started = (request: Request) => {
    if (!DATA_REQUESTS.has(request.resourceType()) || !isAllowedUrl(request.url())) return;
    inflight.add(request);
    seen++;
  };
  const ended = (request: Request) => {
    if (inflight.delete(request)) lastEnded = Date.now();
  };
  const listen = (on: boolean) => {
    try {
      const method = on ? 'on' : 'off';
      page[method]('request', started);
      page[method]('requestfinished', ended);
      page[method]('requestfailed', ended);
    } catch {
      // A closed page starts nothing.
    }
  };
  listen(true);
  return {
    async settled(capMs) {
      // A request's event can reach us after the action's own answer. The page answers this no-op only after its
      // handlers' 0 ms timers ran, by which time what they started has been announced (a loaded suite showed the
      // gap: without it a click that fetched came back as if it had started nothing).
      const roundTrip = page.evaluate(() => new Promise(resolve => setTimeout(resolve, 0))).catch(() => {});
      await Promise.race([roundTrip, sleep(Math.min(capMs, ROUND_TRIP_CAP_MS))]);
      if (seen === 0) return true;
      const deadline = Date.now() + capMs;
      while (inflight.size > 0 || Date.now() - lastEnded < CHAIN_MS) {
        if (Date.now() >= deadline || page.isClosed()) return inflight.size === 0;
        await sleep(POLL_MS);
      }
      return true;
    },
    stop: () => listen(false),
  };
}
