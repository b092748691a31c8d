import type { BrowserContext, Request, WebSocketRoute } from '@playwright/test';

/**
 * What a page's scripts send and fetch, as Playwright names a request's resource type. These are refused outside the
 * task's allowed domains; what a page renders (stylesheets, scripts, images, fonts, media) is not: pages load those
 * from CDNs, and refusing them would break the page and its screenshots.
 */
const SCRIPT_REQUESTS = new Set(['fetch', 'xhr', 'eventsource', 'ping']);

/** WebSocket handshakes are checked as the http(s) URL they upgrade. */
const AS_HTTP: Record<string, string> = { 'ws:': 'http:', 'wss:': 'https:' };

/** 1008 "policy violation": the page sees its socket closed, as a server refusing it would. */
const POLICY_VIOLATION = 1008;

type Announce = (event: () => string) => void;

/**
 * Refuses the requests a page's scripts make to hosts outside the task's allowed domains — fetch, XHR,
 * EventSource, beacons and WebSockets — and announces them once per host until the announcement is read, with how
 * many there were (a page polling a tracker must not flood the log).
 */
export class OffSiteRequests {
  private readonly pending = new Map<string, { count: number; kinds: Set<string> }>();

  constructor(
    private readonly isAllowedUrl: (url: string) => boolean,
    private readonly announce: Announce,
  ) {}

  /** Whether to refuse this sub-resource request (the caller aborts it); announced when refused. */
  refuses(request: Request): boolean {
    const kind = request.resourceType();
    if (!SCRIPT_REQUESTS.has(kind) || !this.offSite(request.url())) return false;
    this.count(request.url(), kind);
    return true;
  }

  /** WebSockets never reach a context route: Playwright routes them apart. */
  async guardWebSockets(context: BrowserContext): Promise<void> {
    await context.routeWebSocket(
      url => this.offSite(url.href),
      (socket: WebSocketRoute) => {
        this.count(socket.url(), 'websocket');
        void socket.close({ code: POLICY_VIOLATION, reason: "outside the task's allowed domains" }).catch(() => {});
      },
    );
  }

  private offSite(url: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    parsed.protocol = AS_HTTP[parsed.protocol] ?? parsed.protocol;
    // data:, blob: and the like never leave the browser.
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    return !this.isAllowedUrl(parsed.href);
  }

  private count(url: string, kind: string): void {
    const host = hostOf(url);
    const seen = this.pending.get(host);
    if (seen) {
      seen.count += 1;
      seen.kinds.add(kind);
      return;
    }
    const entry = { count: 1, kinds: new Set([kind]) };
    this.pending.set(host, entry);
    this.announce(() => {
      this.pending.delete(host);
      const what = entry.count === 1 ? 'a request' : `${entry.count} requests`;
      return `Blocked ${what} the page's scripts made to ${host} (${[...entry.kinds].join(', ')}): outside the task's allowed domains`;
    });
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid address';
  }
}
