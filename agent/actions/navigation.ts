import type { Page, Response } from '@playwright/test';
import { z } from 'zod';
import { isPageGone } from './core/errors';
import { ActionError, defineAction, type ActionEnv, type HandlerOutput } from './core/types';

const HTTP_URL = /^https?:\/\//i;

export const goto = defineAction({
  name: 'goto',
  historyWeight: 1.5,
  leavesPage: true,
  mayTurnPage: true,
  description: 'Open a URL (allowed sites only).',
  verifies:
    "The URL is http(s) on the task's allowed domains (a redirect elsewhere is refused); the page loaded — an HTTP error status is a failure.",
  navigates: true,
  schema: z.object({ url: z.string().min(1).describe('Absolute URL') }),
  async handle({ url }, env) {
    const { policy, signal } = env;
    if (!HTTP_URL.test(url)) throw new ActionError(`Refused: "${url.slice(0, 200)}" is not an http(s) URL`);
    if (!policy.isAllowedUrl(url)) throw new ActionError(`Refused: ${hostOf(url)} is outside the task's allowed domains — stay on the task's sites`);
    await policy.beforeNavigation(url, signal);
    let page = env.page.isClosed() ? await openFreshTab(env) : env.page;
    env.tabs.takeBlocked?.(page);
    let response: Response | null;
    try {
      response = await page.goto(url, { waitUntil: 'domcontentloaded' });
    } catch (error) {
      const blocked = env.tabs.takeBlocked?.(page);
      if (blocked)
        throw new ActionError(`Refused: ${url} leads to ${hostOf(blocked)}, outside the task's allowed domains — stay on the task's sites`);
      if (!isPageGone(error)) throw error;
      page = await openFreshTab(env);
      await env.page.close().catch(() => {});
      response = await page.goto(url, { waitUntil: 'domcontentloaded' });
    }
    return describeResponse(response, `Navigated to ${page.url()}`, url);
  },
});

export const goBack = defineAction({
  name: 'go_back',
  leavesPage: true,
  description: 'Go back one page in this tab.',
  verifies: 'There was a previous page in this tab; it loaded — an HTTP error status is a failure.',
  navigates: true,
  schema: z.object({}),
  async handle(_args, { page }) {
    const before = page.url();
    const response = await page.goBack({ waitUntil: 'domcontentloaded' });
    // The blank page a tab starts on is not a page the agent visited.
    const backToBlank = page.url() === 'about:blank' && before !== 'about:blank';
    if (backToBlank) await page.goForward({ waitUntil: 'domcontentloaded' });
    if (backToBlank || (!response && page.url() === before))
      throw new ActionError('There is no previous page in this tab — use goto or click a link instead');
    return describeResponse(response, `Went back to ${page.url()}`, page.url());
  },
});

export const refresh = defineAction({
  name: 'refresh',
  historyWeight: 0.5,
  leavesPage: true,
  description: 'Reload the current page.',
  verifies: 'The page loaded again — an HTTP error status is a failure.',
  navigates: true,
  schema: z.object({}),
  async handle(_args, { page }) {
    const response = await page.reload({ waitUntil: 'domcontentloaded' });
    return describeResponse(response, `Reloaded ${page.url()}`, page.url());
  },
});

/** A crashed or closed tab cannot navigate; the agent carries on in a new one. */
async function openFreshTab({ context, tabs }: ActionEnv): Promise<Page> {
  const page = await context.newPage();
  tabs.activate(tabs.pages.indexOf(page));
  return page;
}

/** An HTTP error page is a failed step: 5xx and 429 are the server's problem (infra), 4xx the agent's. */
function describeResponse(response: Response | null, done: string, url: string): HandlerOutput {
  const status = response?.status() ?? 0;
  if (status < 400) return { description: `${done}${status ? ` (HTTP ${status})` : ''}` };
  return {
    success: false,
    infra: status >= 500 || status === 429,
    httpStatus: status,
    description: `${done} → HTTP ${status}`,
    error: `HTTP ${status} at ${url}${status === 429 ? ' (rate limited — wait before retrying)' : ''}`,
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return JSON.stringify(url.slice(0, 100));
  }
}
