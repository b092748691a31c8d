import type { BrowserContext, Frame, Page, Request } from '@playwright/test';
import type { Tabs } from '../actions/core/types';

/** An announcement is worded when it is read, so a tab that opened blank names its URL once it is known. */
type PendingEvent = string | (() => string);

const NOT_YET_A_URL = /^(about:blank|chrome-error:|$)/;

/** Keeps the list of tabs in a context, which one actions target, and what happened that the agent should hear. */
export class ContextTabs implements Tabs {
  private current: Page;
  private readonly events: PendingEvent[] = [];
  private readonly urls = new WeakMap<Page, string>();
  private readonly blocked = new WeakMap<Page, string>();
  private readonly watched = new WeakSet<Page>();

  constructor(
    private readonly context: BrowserContext,
    first: Page,
  ) {
    this.current = first;
    for (const page of new Set([first, ...context.pages()])) this.watch(page);
    context.on('page', page => {
      this.watch(page);
      this.events.push(() => this.describeNewTab(page));
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

  /** Something the agent should hear; a function is worded when the announcements are read. */
  announce(event: PendingEvent): void {
    this.events.push(event);
  }

  /** A guard refused a navigation; the tab (when known) remembers where it was not allowed to go. */
  announceBlocked(page: Page | undefined, url: string, event: string): void {
    if (page) this.blocked.set(page, url);
    this.announce(event);
  }

  takeBlocked(page: Page): string | undefined {
    const url = this.blocked.get(page);
    this.blocked.delete(page);
    return url;
  }

  drainEvents(): string[] {
    return this.events.splice(0, this.events.length).map(event => (typeof event === 'string' ? event : event()));
  }

  /** The URL a tab is at or on its way to (a blocked or failed navigation still names where it tried to go). */
  urlOf(page: Page): string | undefined {
    const url = page.isClosed() ? undefined : page.url();
    return url && !NOT_YET_A_URL.test(url) ? url : this.urls.get(page);
  }

  private watch(page: Page): void {
    if (this.watched.has(page)) return;
    this.watched.add(page);
    const remember = (url: string) => {
      if (!NOT_YET_A_URL.test(url)) this.urls.set(page, url);
    };
    page.on('request', (request: Request) => {
      if (isMainFrameNavigation(page, request)) remember(request.url());
    });
    page.on('framenavigated', (frame: Frame) => {
      if (frame === page.mainFrame()) remember(frame.url());
    });
    page.on('crash', () => this.announce(`The tab at ${this.urls.get(page) ?? 'a blank page'} crashed; use goto to load a page again`));
    page.on('close', () => {
      if (this.current !== page) return;
      const next = this.pages[0];
      if (!next) return;
      this.current = next;
      this.announce(`The tab you were working in closed; now working in tab 1 (${this.urlOf(next) ?? next.url()})`);
    });
  }

  private describeNewTab(page: Page): string {
    const url = this.urlOf(page);
    if (page.isClosed()) return `A new tab opened${url ? ` for ${url}` : ''} and was closed again`;
    const where = url ? `tab ${this.numberOf(page)}: ${url}` : `tab ${this.numberOf(page)}, still loading`;
    return `A new tab opened (${where}); use switch_tab to work in it`;
  }

  private numberOf(page: Page): number {
    return this.pages.indexOf(page) + 1;
  }
}

function isMainFrameNavigation(page: Page, request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame() === page.mainFrame();
  } catch {
    return false;
  }
}
