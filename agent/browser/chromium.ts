import { chromium } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { envOf, type EnvSource } from '../env/read';

/** Flags for a machine without internet: Chromium's background services would only produce refused connections. */
export const CHROMIUM_ARGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'];

/** Debian's Chromium (`apt-get install -y chromium`): the last resort before Playwright's own "browser not installed". */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/**
 * The Chromium binary bwa adds where nothing of the user's names a browser: AGENT_CHROMIUM_PATH when set (it must
 * exist); none when Playwright's own Chromium is installed (Playwright launches it); else Debian's when installed;
 * else none, and Playwright says the browser is missing in its own words (`npx playwright install`).
 */
export function fallbackExecutable(
  source?: EnvSource,
  installed = { playwright: playwrightChromiumInstalled, debian: DEBIAN_CHROMIUM },
): string | undefined {
  const chosen = envOf(source).AGENT_CHROMIUM_PATH;
  if (chosen) {
    if (!fs.existsSync(chosen))
      throw new Error(
        `Chromium not found at ${chosen} (AGENT_CHROMIUM_PATH). Point it at a Chromium binary, or unset it to use Playwright's installed browsers (\`npx playwright install chromium\`) or Debian's Chromium (\`apt-get install -y chromium\`).`,
      );
    return chosen;
  }
  if (installed.playwright()) return undefined;
  return fs.existsSync(installed.debian) ? installed.debian : undefined;
}

/**
 * Playwright's own Chromium is installed (`npx playwright install chromium`, or only its headless shell): the
 * browser a plain Playwright project launches.
 */
export function playwrightChromiumInstalled(): boolean {
  let full: string;
  try {
    full = chromium.executablePath();
  } catch {
    return false;
  }
  if (fs.existsSync(full)) return true;
  // …/chromium-<revision>/chrome-linux64/chrome → …/chromium_headless_shell-<revision>/ (what headless runs use).
  const revisionDir = full.split(path.sep).find(part => /^chromium-\d+$/.test(part));
  if (!revisionDir) return false;
  const root = full.slice(0, full.indexOf(revisionDir));
  return fs.existsSync(path.join(root, revisionDir.replace('chromium-', 'chromium_headless_shell-')));
}
