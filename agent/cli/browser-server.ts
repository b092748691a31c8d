import { chromium, type BrowserServer } from '@playwright/test';
import * as os from 'node:os';
import { chromiumPath, CHROMIUM_ARGS } from '../browser/chromium';
import { PLAYWRIGHT_VERSION } from '../browser/remote';

const USAGE = 'bwa browser-server [--port <port>] [--host <address>] [--ws-path <path>]';

const OPTIONS = ['port', 'host', 'ws-path'] as const;
type Options = Partial<Record<(typeof OPTIONS)[number], string>>;

/**
 * Playwright's own browser server on Debian's Chromium: runners on other machines get their browsers from it with
 * AGENT_BROWSER_WS (Playwright's connectOptions). Started from this project's Playwright, so versions match.
 */
export const browserServerCommand = {
  name: 'browser-server',
  summary: 'Serve Chromium to runners on other machines (they set AGENT_BROWSER_WS to the endpoint it prints)',
  usage: [
    USAGE,
    '',
    '  --port     port to listen on (default 0: any free port)',
    '  --host     address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 serves other machines)',
    '  --ws-path  fixed endpoint path, so runners keep one AGENT_BROWSER_WS across restarts (default: a new random path,',
    '             which is also what keeps strangers out: anyone who knows the endpoint can drive the browser)',
  ].join('\n'),
  async run(args: string[]): Promise<number> {
    const options = parseOptions(args);
    if (typeof options === 'string') {
      console.error(`bwa browser-server: ${options}\nusage: ${USAGE}`);
      return 2;
    }
    const server = await chromium.launchServer({
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
      port: Number(options.port ?? 0),
      host: options.host ?? '127.0.0.1',
      wsPath: options['ws-path'],
      // This command decides when the browser goes: on a signal it closes it and exits cleanly.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    for (const line of describe(server, options.host ?? '127.0.0.1')) console.log(line);
    return waitForStop(server);
  },
};

/** The options, or what is wrong with the arguments. */
function parseOptions(args: string[]): Options | string {
  const options: Options = {};
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i]!.replace(/^--/, '');
    const value = args[i + 1];
    if (!args[i]!.startsWith('--') || !OPTIONS.includes(name as never)) return `unknown argument "${args[i]}"`;
    if (value === undefined || value.startsWith('--')) return `--${name} needs a value`;
    options[name as keyof Options] = value;
  }
  const port = Number(options.port ?? 0);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return `--port must be a whole number from 0 to 65535 (got "${options.port}")`;
  return options;
}

function describe(server: BrowserServer, host: string): string[] {
  const wildcard = host === '0.0.0.0' || host === '::';
  const url = new URL(server.wsEndpoint());
  // A wildcard address is no address a runner can dial: name this machine instead.
  if (wildcard) url.hostname = os.hostname();
  const forRunners = url.toString();
  return [
    `bwa browser-server: Chromium ${chromiumPath()} (pid ${server.process().pid}), Playwright ${PLAYWRIGHT_VERSION}`,
    `endpoint: ${forRunners}`,
    `runners: AGENT_BROWSER_WS=${forRunners} npx playwright test --project=tasks`,
    ...(['127.0.0.1', 'localhost', '::1'].includes(host) ? ['(this machine only: start with --host 0.0.0.0 to serve other machines)'] : []),
    'Ctrl-C stops it (the runs connected to it lose their browsers).',
  ];
}

/** Resolves with the exit code once a signal stops the server (0) or the browser dies under it (1). */
function waitForStop(server: BrowserServer): Promise<number> {
  return new Promise(resolve => {
    let stopping = false;
    const stop = async (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      console.log(`bwa browser-server: ${signal}, closing the browser`);
      await server.close().catch(() => {});
    };
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of signals) process.on(signal, stop);
    server.on('close', () => {
      for (const signal of signals) process.off(signal, stop);
      if (!stopping) console.error('bwa browser-server: the browser exited on its own; runners connected to it fail their samples');
      resolve(stopping ? 0 : 1);
    });
  });
}
