import * as fs from 'node:fs';
import { envOf, type EnvSource } from '../env/read';

/** Flags for a machine without internet: Chromium's background services would only produce refused connections. */
export const CHROMIUM_ARGS = ['--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu'];

export function chromiumPath(source?: EnvSource): string {
  const candidate = envOf(source).AGENT_CHROMIUM_PATH;
  if (!fs.existsSync(candidate)) {
    throw new Error(
      `Chromium not found at ${candidate}. Install Debian's Chromium with \`apt-get install -y chromium\`, ` +
        `or point AGENT_CHROMIUM_PATH at a Chromium binary. (bwa never downloads a browser: do not run \`npx playwright install\`.)`,
    );
  }
  return candidate;
}
