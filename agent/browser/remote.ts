import { chromium, firefox, webkit, type Browser, type PlaywrightWorkerOptions } from '@playwright/test';
import { settings, type BrowserServerSettings } from '../settings';
import { CHROMIUM_ARGS, fallbackExecutable } from './chromium';

export const PLAYWRIGHT_VERSION: string = require('@playwright/test/package.json').version;

/** A browser server that stops answering mid-run fails the sample that needed it instead of hanging it. */
const CONNECT_TIMEOUT_MS = 30_000;

/** The options of a Playwright config (top-level or a project's `use`) that say which browser runs. */
export type BrowserUse = Partial<Pick<PlaywrightWorkerOptions, 'browserName' | 'channel' | 'headless' | 'launchOptions' | 'connectOptions'>>;

/**
 * The browser options bwa adds to the user's own, as Playwright Test options: with AGENT_BROWSER_WS, Playwright's
 * `connectOptions` to that browser server; nothing where the user's options name a browser (a `channel`, an
 * `executablePath`, `connectOptions`, another browser type); else the fallback Chromium (AGENT_CHROMIUM_PATH, or
 * Debian's where Playwright's own is not installed), added to the user's launch options, not in their place.
 */
export function browserFor(use: BrowserUse = {}, server = settings.browserServer): BrowserUse {
  if (server) return { connectOptions: { wsEndpoint: server.wsEndpoint, headers: server.headers, timeout: CONNECT_TIMEOUT_MS } };
  if (namesBrowser(use)) return {};
  const executablePath = fallbackExecutable();
  if (!executablePath) return {};
  const own = use.launchOptions ?? {};
  return { launchOptions: { ...own, executablePath, args: [...(own.args ?? []), ...CHROMIUM_ARGS.filter(arg => !own.args?.includes(arg))] } };
}

function namesBrowser(use: BrowserUse): boolean {
  return Boolean(use.connectOptions || use.channel || use.launchOptions?.executablePath || (use.browserName && use.browserName !== 'chromium'));
}

/**
 * A browser bwa opens itself (sign-in and discovery in globalSetup, `bwa recipe`, `bwa look`): the one its samples
 * get — the user's project options when known, with bwa's additions.
 */
export function openBrowser(use: BrowserUse = {}, server = settings.browserServer): Promise<Browser> {
  const chosen = { ...use, ...browserFor(use, server) };
  if (server) return connect(server);
  if (chosen.connectOptions) {
    const { wsEndpoint, ...options } = chosen.connectOptions;
    return BROWSER_TYPES[chosen.browserName ?? 'chromium'].connect(wsEndpoint, options);
  }
  return BROWSER_TYPES[chosen.browserName ?? 'chromium'].launch({
    headless: chosen.headless ?? true,
    channel: chosen.channel,
    ...chosen.launchOptions,
  });
}

const BROWSER_TYPES = { chromium, firefox, webkit };

/** A connection to the server, or an error that says what was wrong with it and what to do, its credentials masked. */
async function connect(server: BrowserServerSettings, consequence = ''): Promise<Browser> {
  try {
    return await chromium.connect(server.wsEndpoint, { headers: server.headers, timeout: CONNECT_TIMEOUT_MS });
  } catch (error) {
    const problem = new Error(`${unusableServerMessage(server, error instanceof Error ? error.message : String(error))}${consequence}`);
    // The message alone: what was wrong and what to do, not where in bwa it was noticed.
    problem.stack = problem.message;
    throw problem;
  }
}

/**
 * Connects once, before any sample starts, so a server that is down, refuses us or runs another Playwright
 * stops the run with one message instead of failing every sample. Returns the line that says which browser runs.
 */
export async function checkBrowserServer(server = settings.browserServer): Promise<string | undefined> {
  if (!server) return undefined;
  const browser = await connect(server, ' No sample was started.');
  const version = browser.version();
  await browser.close();
  return `bwa: every sample's browser comes from the browser server at ${endpointForDisplay(server.wsEndpoint)} (Chromium ${version})`;
}

interface Diagnosis {
  /** What the connection error says was wrong, in words; undefined when this diagnosis does not apply. */
  what(error: string): string | undefined;
  todo: string;
}

const UNREACHABLE = /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EAI_AGAIN|Timeout \d+ms exceeded/;
const httpStatus = (error: string) => /\b(\d{3}) [A-Z][A-Za-z ]+\n/.exec(error)?.[1];

/** Playwright's own connection errors, from the most specific; the server's answer on a mismatch names both versions. */
const DIAGNOSES: Diagnosis[] = [
  {
    what: error => {
      const versions = /server version: v([\d.]+)[\s\S]*client version: v([\d.]+)/.exec(error);
      return versions
        ? `it runs Playwright ${versions[1]} and serves only clients of that version (this one says ${versions[2]}; this project pins ${PLAYWRIGHT_VERSION})`
        : undefined;
    },
    todo: `start the server from this project's Playwright: \`npx bwa browser-server\` in a checkout of this project on that machine, or \`npx playwright@${PLAYWRIGHT_VERSION} run-server\``,
  },
  {
    what: error => (UNREACHABLE.test(error) ? `nothing answers there (${UNREACHABLE.exec(error)![0]})` : undefined),
    todo: 'start one on that machine with `npx bwa browser-server --host 0.0.0.0` and set AGENT_BROWSER_WS to the endpoint it prints, or unset AGENT_BROWSER_WS to use a local Chromium',
  },
  {
    what: error => (['401', '403'].includes(httpStatus(error) ?? '') ? `it refused the connection (HTTP ${httpStatus(error)})` : undefined),
    todo: 'check the credentials in AGENT_BROWSER_WS_HEADERS (or the token in the endpoint)',
  },
  {
    what: error => (['400', '404'].includes(httpStatus(error) ?? '') ? `it has no browser at that path (HTTP ${httpStatus(error)})` : undefined),
    todo: 'copy the whole endpoint the server printed, path included (a restarted server has a new path unless it was started with --ws-path)',
  },
  {
    what: error => (/Malformed endpoint/.test(error) ? 'it is not a Playwright browser server' : undefined),
    todo: 'point AGENT_BROWSER_WS at a server started with `npx bwa browser-server` (or `launchServer`, `npx playwright run-server`), not at a Chrome DevTools endpoint',
  },
];

export function unusableServerMessage(server: BrowserServerSettings, error: string): string {
  const where = endpointForDisplay(server.wsEndpoint);
  const found = DIAGNOSES.map(d => ({ what: d.what(error), todo: d.todo })).find(d => d.what);
  const what = found?.what ?? `connecting failed: ${firstLine(error).split(server.wsEndpoint).join(where)}`;
  const todo = found?.todo ?? 'check that the server is up and reachable from this machine';
  return `bwa: cannot use the browser server at ${where} (AGENT_BROWSER_WS): ${what}. What to do: ${todo}.`;
}

/** The endpoint without what may be a credential: a password, query values (grids take tokens there). */
export function endpointForDisplay(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    if (url.password) url.password = '***';
    for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, '***');
    return url.toString().replace(/%2A%2A%2A/g, '***');
  } catch {
    return '(an endpoint that is not a URL)';
  }
}

function firstLine(text: string): string {
  return text.replace(/^browserType\.connect: /, '').split('\n')[0] ?? text;
}
