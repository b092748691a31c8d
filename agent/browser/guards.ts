import type { BrowserContext, CDPSession, Dialog, Frame, Page, Request, Route } from '@playwright/test';
import type { ContextTabs } from './context-tabs';
import { OffSiteRequests } from './off-site-requests';

export interface GuardOptions {
  isAllowedUrl: (url: string) => boolean;
  dialogPolicy: 'accept' | 'dismiss';
  tabs: ContextTabs;
  /** Waits out the host's rate limit before an allowed navigation leaves the browser (links, forms, scripts). */
  paceNavigation?(url: string): Promise<void>;
}

/** A popup's first document is fetched here when it starts before the tab's redirect guard is attached. */
const UNGUARDED_FETCH_TIMEOUT_MS = 15_000;
const LOCAL_RESOURCE_REFUSED = /^Not allowed to load local resource: (.*)$/;
/** "aborted" leaves the tab on the page it was on; "blockedbyclient" would replace it with an error page. */
const STAY_ON_PAGE = 'aborted';

/**
 * Context-wide safety nets that do not depend on the agent asking nicely:
 * - navigations (links, forms, window.open, sub-frames, downloads) to hosts outside allowed_domains are aborted by
 *   a context route, and redirects to such hosts — which a route never sees — by a per-tab redirect guard;
 * - so are the page scripts' own requests to such hosts (fetch, XHR, EventSource, beacons, WebSockets); what the
 *   page renders (stylesheets, scripts, images, fonts, media) loads from any host;
 * - file: links, which Chromium refuses by itself, are recorded;
 * - JavaScript dialogs are answered by policy, so no page can hang a sample.
 * Everything blocked or answered is announced through the tabs, so the loop logs it.
 */
export async function installGuards(context: BrowserContext, options: GuardOptions): Promise<void> {
  const redirects = new RedirectGuard(context, options.isAllowedUrl, options.tabs);
  const blockedTabs = new BlockedTabs();
  const offSite = new OffSiteRequests(options.isAllowedUrl, event => options.tabs.announce(event));
  await context.route('**/*', route => {
    if (route.request().isNavigationRequest()) return guardNavigation(route, options, redirects, blockedTabs);
    return offSite.refuses(route.request()) ? route.abort('blockedbyclient') : route.fallback();
  });
  await offSite.guardWebSockets(context);
  context.on('dialog', dialog => void answerDialog(dialog, options));
  const watch = async (page: Page) => {
    blockedTabs.watch(page);
    page.on('console', message => {
      const refused = message.type() === 'error' ? LOCAL_RESOURCE_REFUSED.exec(message.text()) : null;
      if (refused) options.tabs.announce(`Blocked opening ${describeUrl(refused[1] ?? '')} (local files are never opened)`);
    });
    await redirects.attach(page);
  };
  context.on('page', page => void watch(page));
  await Promise.all(context.pages().map(watch));
}

async function guardNavigation(route: Route, options: GuardOptions, redirects: RedirectGuard, blockedTabs: BlockedTabs): Promise<void> {
  const request = route.request();
  // A new tab's first request is issued before its frame exists (window.open, target=_blank).
  const frame = frameOf(request);
  const url = request.url();
  if (!options.isAllowedUrl(url)) {
    if (!frame || !frame.parentFrame())
      options.tabs.announceBlocked(frame?.page(), url, `Blocked navigation to ${describeUrl(url)} (outside the task's allowed domains)`);
    if (!frame) blockedTabs.refusedFirstNavigation();
    return route.abort(STAY_ON_PAGE);
  }
  await options.paceNavigation?.(url).catch(() => {});
  if (!frame || !redirects.isGuarding(frame.page()))
    return fetchWithoutRedirects(route, options, () => !frame && blockedTabs.refusedFirstNavigation());
  return route.fallback();
}

/** Until a tab's redirect guard is attached, its document is fetched here so a redirect is inspected first. */
async function fetchWithoutRedirects(route: Route, options: GuardOptions, onBlocked: () => void): Promise<void> {
  const request = route.request();
  let response;
  try {
    response = await route.fetch({ maxRedirects: 0, timeout: UNGUARDED_FETCH_TIMEOUT_MS });
  } catch {
    return route.fallback();
  }
  const location = response.headers()['location'];
  if (response.status() >= 300 && response.status() < 400 && location) {
    const target = resolveUrl(location, request.url());
    if (!options.isAllowedUrl(target)) {
      options.tabs.announceBlocked(
        frameOf(request)?.page(),
        target,
        `Blocked a redirect from ${describeUrl(request.url())} to ${describeUrl(target)} (outside the task's allowed domains)`,
      );
      onBlocked();
      return route.abort(STAY_ON_PAGE);
    }
  }
  await route.fulfill({ response });
}

/**
 * A new tab whose first navigation was refused stays blank and useless: it is closed. The refusal and the
 * tab's arrival can come in either order, so whichever comes second closes the tab.
 */
class BlockedTabs {
  private refusals = 0;
  private readonly blankPopups: Page[] = [];

  refusedFirstNavigation(): void {
    const popup = this.blankPopups.shift();
    if (popup) void popup.close().catch(() => {});
    else this.refusals += 1;
  }

  watch(page: Page): void {
    if (!isBlank(page)) return;
    if (this.refusals > 0) {
      this.refusals -= 1;
      void page.close().catch(() => {});
      return;
    }
    void page.opener().then(
      opener => {
        if (!opener || !isBlank(page)) return;
        this.blankPopups.push(page);
        const forget = () => {
          const at = this.blankPopups.indexOf(page);
          if (at >= 0) this.blankPopups.splice(at, 1);
        };
        page.once('framenavigated', forget);
        page.once('close', forget);
      },
      () => {},
    );
  }
}

function isBlank(page: Page): boolean {
  const url = page.url();
  return url === '' || url === 'about:blank' || url.startsWith('chrome-error:');
}

async function answerDialog(dialog: Dialog, options: GuardOptions): Promise<void> {
  const type = dialog.type();
  // Leaving a page is always the agent's own intent; a beforeunload prompt must not strand it.
  const accept = options.dialogPolicy === 'accept' || type === 'beforeunload';
  const said = type === 'beforeunload' ? 'asked to confirm leaving the page' : `said ${JSON.stringify(dialog.message().slice(0, 200))}`;
  options.tabs.announce(
    `${/^[aeiou]/.test(type) ? 'An' : 'A'} ${type} dialog ${said}; it was ${accept ? 'accepted' : 'dismissed'} (dialog policy: ${options.dialogPolicy})`,
  );
  try {
    if (accept) await dialog.accept(type === 'prompt' ? dialog.defaultValue() : undefined);
    else await dialog.dismiss();
  } catch {
    // The page may have closed the dialog itself or navigated away.
  }
}

function frameOf(request: Request): Frame | undefined {
  try {
    return request.frame();
  } catch {
    return undefined;
  }
}

interface PausedDocument {
  requestId: string;
  frameId: string;
  request: { url: string };
  responseStatusCode?: number;
  responseHeaders?: Array<{ name: string; value: string }>;
}

/**
 * Playwright hands a route only the first URL of a redirect chain, so a link to an allowed page that
 * answers `302 Location: http://elsewhere/` would slip past it. Each tab therefore pauses its document
 * responses (Chromium's Fetch domain, response stage) and fails a redirect whose Location is not allowed.
 * Sub-resources are not paused: only documents can take the tab somewhere.
 */
class RedirectGuard {
  private readonly guarded = new WeakSet<Page>();

  constructor(
    private readonly context: BrowserContext,
    private readonly isAllowedUrl: (url: string) => boolean,
    private readonly tabs: ContextTabs,
  ) {}

  isGuarding(page: Page): boolean {
    return this.guarded.has(page);
  }

  async attach(page: Page): Promise<void> {
    try {
      const session = await this.context.newCDPSession(page);
      const { frameTree } = await session.send('Page.getFrameTree');
      session.on('Fetch.requestPaused', event => void this.inspect(page, frameTree.frame.id, session, event as PausedDocument));
      await session.send('Fetch.enable', { patterns: [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Response' }] });
      this.guarded.add(page);
    } catch {
      // The tab closed before it could be guarded; nothing can navigate in it any more.
    }
  }

  private async inspect(page: Page, mainFrameId: string, session: CDPSession, event: PausedDocument): Promise<void> {
    const status = event.responseStatusCode ?? 0;
    const location = event.responseHeaders?.find(header => header.name.toLowerCase() === 'location')?.value;
    const target = status >= 300 && status < 400 && location ? resolveUrl(location, event.request.url) : undefined;
    if (target !== undefined && !this.isAllowedUrl(target)) {
      // Embedded frames (ads, widgets) redirect away all the time; only the tab's own page is worth a notice.
      if (event.frameId === mainFrameId)
        this.tabs.announceBlocked(
          page,
          target,
          `Blocked a redirect from ${describeUrl(event.request.url)} to ${describeUrl(target)} (outside the task's allowed domains)`,
        );
      await session.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'Aborted' }).catch(() => {});
      return;
    }
    await session.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => {});
  }
}

function resolveUrl(location: string, base: string): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.host;
    return parsed.protocol === 'file:' ? `a file: URL (${url.slice(0, 120)})` : `a ${parsed.protocol} URL`;
  } catch {
    return 'an invalid URL';
  }
}
