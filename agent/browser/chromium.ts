import * as fs from 'node:fs';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/** Flags for a machine without internet: Chromium's background services would only produce refused connections. */
export const CHROMIUM_ARGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'];

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const candidate = env.AGENT_CHROMIUM_PATH || DEFAULT_CHROMIUM;
  if (!fs.existsSync(candidate)) {
    throw new Error(
      `Chromium not found at ${candidate}. Install Debian's Chromium with \`apt-get install -y chromium\`, ` +
        `or point AGENT_CHROMIUM_PATH at a Chromium binary. (bwa never downloads a browser: do not run \`npx playwright install\`.)`,
    );
  }
  return candidate;
}
