import type { BrowserContext, Page } from '@playwright/test';
import type { PageTracker } from '../actions/types';

/** Keeps the list of tabs in a context, which one actions target, and what happened that the agent should hear. */
export class ContextPages implements PageTracker {
  private current: Page;
  private readonly events: string[] = [];

  constructor(private readonly context: BrowserContext, first: Page) {
    this.current = first;
    context.on('page', page => {
      const index = this.pages.indexOf(page);
      this.announce(`A new tab opened (tab ${index + 1}${page.url() && page.url() !== 'about:blank' ? `: ${page.url()}` : ''}); use switch_tab to work in it`);
      page.on('close', () => {
        if (this.current === page) this.current = this.pages[0] ?? first;
      });
    });
  }

  get active(): Page {
    if (this.current.isClosed()) this.current = this.pages[0] ?? this.current;
    return this.current;
  }

  get pages(): readonly Page[] {
    return this.context.pages();
  }

  activate(index: number): Page {
    const page = this.pages[index];
    if (!page) throw new Error(`There is no tab ${index + 1}; open tabs: ${this.pages.length}`);
    this.current = page;
    return page;
  }

  announce(event: string): void {
    this.events.push(event);
  }

  drainEvents(): string[] {
    return this.events.splice(0, this.events.length);
  }
}
