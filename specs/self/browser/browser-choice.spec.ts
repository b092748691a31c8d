import { expect, test } from '@playwright/test';
import { CHROMIUM_ARGS, DEBIAN_CHROMIUM, fallbackExecutable } from '../../../agent/browser/chromium';
import { browserFor } from '../../../agent/browser/remote';
import { withEnv } from '../helpers/env';

const NOTHING_INSTALLED = { playwright: () => false, debian: '/nonexistent/chromium' };
const PLAYWRIGHTS = { playwright: () => true, debian: DEBIAN_CHROMIUM };
const DEBIANS = { playwright: () => false, debian: DEBIAN_CHROMIUM };

test('the fallback Chromium: AGENT_CHROMIUM_PATH, else none where Playwright has its own, else Debian’s, else none (Playwright says what is missing)', () => {
  expect(fallbackExecutable({}, PLAYWRIGHTS)).toBeUndefined();
  expect(fallbackExecutable({}, DEBIANS)).toBe(DEBIAN_CHROMIUM);
  expect(fallbackExecutable({}, NOTHING_INSTALLED)).toBeUndefined();
  expect(fallbackExecutable({ AGENT_CHROMIUM_PATH: DEBIAN_CHROMIUM }, PLAYWRIGHTS)).toBe(DEBIAN_CHROMIUM);
  expect(() => fallbackExecutable({ AGENT_CHROMIUM_PATH: '/nonexistent/chromium' }, PLAYWRIGHTS)).toThrow(
    /Chromium not found at \/nonexistent\/chromium \(AGENT_CHROMIUM_PATH\)\. .*`npx playwright install chromium`.*`apt-get install -y chromium`/,
  );
});

test("the user's browser wins: a channel, an executablePath, connectOptions or another browser type get nothing of bwa's", () => {
  for (const use of [
    { channel: 'chrome' },
    { launchOptions: { executablePath: '/opt/chrome/chrome' } },
    { connectOptions: { wsEndpoint: 'ws://grid.example:3000/x' } },
    { browserName: 'firefox' as const },
  ])
    expect(browserFor(use, undefined), JSON.stringify(use)).toEqual({});
});

test("with nothing named, the fallback joins the user's launch options instead of replacing them", () => {
  withEnv({ AGENT_CHROMIUM_PATH: DEBIAN_CHROMIUM }, () => {
    const added = browserFor({ launchOptions: { slowMo: 50, args: ['--lang=de', '--disable-gpu'] } }, undefined);
    expect(added.launchOptions).toEqual({
      slowMo: 50,
      executablePath: DEBIAN_CHROMIUM,
      args: ['--lang=de', '--disable-gpu', ...CHROMIUM_ARGS.filter(a => a !== '--disable-gpu')],
    });
  });
});

test('AGENT_BROWSER_WS puts every sample on that browser server, whatever the config says', () => {
  const server = { wsEndpoint: 'ws://10.0.0.5:3000/abc', headers: { Authorization: 'Bearer t' } };
  expect(browserFor({ channel: 'chrome' }, server)).toEqual({
    connectOptions: { wsEndpoint: server.wsEndpoint, headers: server.headers, timeout: 30_000 },
  });
});
