import type { Page } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import { settlePage, type RateLimitedDocument } from './settle';
import type { ActionPolicy, ActionResult } from '../core/types';

/** A site asking for more than this is not waited on inside one action: the step fails and the loop decides. */
const MAX_RETRY_AFTER_S = 60;
const DEFAULT_RETRY_AFTER_S = 1;
const RELOADS = 2;

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterSeconds(header: string | undefined, now = Date.now()): number {
  if (!header?.trim()) return DEFAULT_RETRY_AFTER_S;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) : (Date.parse(header) - now) / 1000;
  return Number.isFinite(seconds) ? Math.min(MAX_RETRY_AFTER_S, Math.max(0, seconds)) : DEFAULT_RETRY_AFTER_S;
}

/**
 * The page an action led to answered 429. Every sample pacing that host holds off for the Retry-After the site
 * asked for (shared through the rate limiter's slot book), then this page is loaded again, at most twice.
 * A rate limit is the site protecting itself, not a fact about the sample: it must not end up in the data.
 */
export async function recoverFromRateLimit(
  page: Page,
  limited: RateLimitedDocument,
  policy: ActionPolicy,
  signal: AbortSignal,
  result: ActionResult,
  settleMs: number,
): Promise<ActionResult> {
  let waited = 0;
  let current = limited;
  for (let attempt = 1; attempt <= RELOADS; attempt++) {
    const seconds = retryAfterSeconds(current.retryAfter);
    if (policy.onRateLimited) await policy.onRateLimited(current.url, seconds);
    else await sleep(seconds * 1000, undefined, { signal });
    await policy.beforeNavigation(current.url, signal);
    waited += seconds;
    const response = await page.reload({ waitUntil: 'domcontentloaded' });
    await settlePage(page, settleMs);
    const status = response?.status() ?? 0;
    if (status !== 429) {
      const note = `the site answered HTTP 429 (rate limited); waited ${formatSeconds(waited)} as its Retry-After asked and loaded the page again${status ? ` (HTTP ${status})` : ''}`;
      if (status >= 400)
        return {
          success: false,
          infra: status >= 500,
          httpStatus: status,
          description: `${result.description} — ${note}`,
          error: `HTTP ${status} at ${page.url()}`,
        };
      return {
        ...result,
        success: true,
        infra: undefined,
        httpStatus: undefined,
        error: undefined,
        description: `${result.description.replace(/ → HTTP 429$/, '')} — ${note}`,
      };
    }
    current = { url: response?.url() ?? current.url, retryAfter: response?.headers()['retry-after'] };
  }
  return {
    success: false,
    infra: true,
    httpStatus: 429,
    description: `${result.description.replace(/ → HTTP 429$/, '')} → HTTP 429`,
    error: `HTTP 429 at ${current.url}: still rate limited after waiting ${formatSeconds(waited)} (the site's Retry-After) and loading the page ${RELOADS} more times — slow this host down with the task's rate_limits`,
  };
}

const formatSeconds = (seconds: number) => `${Number(seconds.toFixed(1))} s`;
