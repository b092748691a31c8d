import { chromium, type BrowserServer } from '@playwright/test';
import * as os from 'node:os';
import { CHROMIUM_ARGS, fallbackExecutable } from '../browser/chromium';
import { PLAYWRIGHT_VERSION } from '../browser/remote';
import { wholeNumberText } from '../env/kinds';
import { defineCommand } from './command';
import { listed } from './listing';
import { BWA_PROJECTS } from '../project/names';

/**
 * Playwright's own browser server on Debian's Chromium: runners on other machines get their browsers from it with
 * AGENT_BROWSER_WS (Playwright's connectOptions). Started from this project's Playwright, so versions match.
 */
export const browserServerCommand = defineCommand({
  ...listed('browser-server'),
  options: {
    port: { type: 'string', placeholder: 'port', value: wholeNumberText(0, 65535), help: 'port to listen on (default 0: any free port)' },
    host: {
      type: 'string',
      placeholder: 'address',
      help: 'address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 serves other machines)',
    },
    'ws-path': {
      type: 'string',
      placeholder: 'path',
      help: 'fixed endpoint path, so runners keep one AGENT_BROWSER_WS across restarts (default: a new random path, which is also what keeps strangers out: anyone who knows the endpoint can drive the browser)',
    },
  },
  positionals: [],
  async run({ options }) {
    const host = options.host ?? '127.0.0.1';
    const server = await chromium.launchServer({
      executablePath: fallbackExecutable(),
      args: CHROMIUM_ARGS,
      port: options.port ?? 0,
      host,
      wsPath: options['ws-path'],
      // This command decides when the browser goes: on a signal it closes it and exits cleanly.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    for (const line of describe(server, host)) console.log(line);
    return waitForStop(server);
  },
});

function describe(server: BrowserServer, host: string): string[] {
  const wildcard = host === '0.0.0.0' || host === '::';
  const url = new URL(server.wsEndpoint());
  // A wildcard address is no address a runner can dial: name this machine instead.
  if (wildcard) url.hostname = os.hostname();
  const forRunners = url.toString();
  return [
    `bwa browser-server: Chromium ${fallbackExecutable() ?? chromium.executablePath()} (pid ${server.process().pid}), Playwright ${PLAYWRIGHT_VERSION}`,
    `endpoint: ${forRunners}`,
    `runners: AGENT_BROWSER_WS=${forRunners} npx playwright test --project=${BWA_PROJECTS.tasks}`,
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
    const onSignal = (signal: NodeJS.Signals) => void stop(signal);
    for (const signal of signals) process.on(signal, onSignal);
    server.on('close', () => {
      for (const signal of signals) process.off(signal, onSignal);
      if (!stopping) console.error('bwa browser-server: the browser exited on its own; runners connected to it fail their samples');
      resolve(stopping ? 0 : 1);
    });
  });
}
