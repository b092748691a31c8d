import * as path from 'node:path';
import { passOnUnlessSet } from '../env/read';
import { folderOfConfig } from '../env/config-dir';

/**
 * `-c <config>` / `--config <config>` on any command but `init` (which wires the config it names): the Playwright
 * config — a file or its folder — whose project the command works in, as `npx playwright test -c` takes it. It sets
 * AGENT_PROJECT_DIR for the command (unless the environment already names one), so tasks, reports and `.env` are
 * read beside that config from any folder. Returns the arguments without it, or an error line.
 */
export function takeProjectOption(args: readonly string[], cwd = process.cwd()): { rest: string[] } | { error: string } {
  const rest: string[] = [];
  let config: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-c' || arg === '--config') {
      config = args[++i];
      if (config === undefined || config.startsWith('-')) return { error: `${arg} takes the Playwright config (a file or its folder)` };
    } else if (arg.startsWith('--config=')) config = arg.slice('--config='.length);
    else rest.push(arg);
  }
  if (config === undefined) return { rest };
  const given = path.resolve(cwd, config);
  const folder = folderOfConfig(given);
  if (!folder) return { error: `--config ${config}: no such file or folder (${given})` };
  passOnUnlessSet('AGENT_PROJECT_DIR', () => folder);
  return { rest };
}
