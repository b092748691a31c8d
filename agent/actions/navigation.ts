import { z } from 'zod';
import { ActionError, defineAction } from './types';

const HTTP_URL = /^https?:\/\//i;

export const goto = defineAction({
  name: 'goto',
  description: 'Navigate the current tab to a URL (only http/https on the task\'s allowed domains).',
  navigates: true,
  schema: z.object({ url: z.string().min(1).describe('Absolute http(s) URL to open') }),
  async handle({ url }, { page, policy, signal }) {
    if (!HTTP_URL.test(url)) throw new ActionError(`Refused: "${url}" is not an http(s) URL`);
    if (!policy.isAllowedUrl(url)) throw new ActionError(`Refused: ${new URL(url).host} is outside the task's allowed domains — stay on the task's sites`);
    await policy.beforeNavigation(url, signal);
    const response = await page.goto(url, { waitUntil: 'domcontentloaded' });
    const status = response?.status() ?? 0;
    if (status >= 400) {
      return {
        success: false,
        infra: status >= 500 || status === 429,
        description: `Opened ${url} → HTTP ${status}`,
        error: `HTTP ${status} at ${url}${status === 429 ? ' (rate limited — wait before retrying)' : ''}`,
      };
    }
    return { description: `Navigated to ${page.url()}${status ? ` (HTTP ${status})` : ''}` };
  },
});

export const goBack = defineAction({
  name: 'go_back',
  description: 'Go back to the previous page in this tab\'s history.',
  navigates: true,
  schema: z.object({}),
  async handle(_args, { page }) {
    const response = await page.goBack({ waitUntil: 'domcontentloaded' });
    if (!response && page.url() === 'about:blank') throw new ActionError('There is no previous page in this tab');
    return { description: `Went back to ${page.url()}` };
  },
});

export const refresh = defineAction({
  name: 'refresh',
  description: 'Reload the current page (use when it is in a bad state).',
  navigates: true,
  schema: z.object({}),
  async handle(_args, { page }) {
    const response = await page.reload({ waitUntil: 'domcontentloaded' });
    return { description: `Reloaded ${page.url()}${response ? ` (HTTP ${response.status()})` : ''}` };
  },
});
