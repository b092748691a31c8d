import { z } from 'zod';
import { defineAction, type Tabs } from './core/types';

export const switchTab = defineAction({
  name: 'switch_tab',
  leavesPage: true,
  description: 'Work in another open tab.',
  verifies: 'The tab exists (else lists the open tabs); reports its URL and title.',
  schema: z.object({ tab: z.number().int().min(1).describe('1 = first') }),
  async handle({ tab }, { tabs }) {
    const pages = tabs.pages;
    if (tab > pages.length) return { success: false, description: `No tab ${tab}`, error: `There is no tab ${tab}; open tabs: ${listTabs(tabs)}` };
    const page = tabs.activate(tab - 1);
    await page.bringToFront().catch(() => {});
    const title = await page.title().catch(() => '');
    return { description: `Now in tab ${tab}: ${page.url()}${title ? ` (${title})` : ''}` };
  },
});

function listTabs(tabs: Tabs): string {
  return tabs.pages.map((page, i) => `${i + 1} ${page.url()}`).join(' | ');
}
