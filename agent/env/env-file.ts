import * as dotenv from 'dotenv';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { projectDir, readEnv } from './read';

/**
 * Loads the project's `.env` (AGENT_ENV_FILE, relative to the project folder; `none` loads nothing) into this
 * process's environment, without replacing a variable already set: the shell and CI win over the file. Called once
 * in the main process (the config helper, the command line); workers inherit what it set.
 */
export function loadEnvFile(): string | undefined {
  const name = readEnv('AGENT_ENV_FILE');
  if (name === 'none') return undefined;
  const file = path.resolve(projectDir(), name);
  if (!fs.existsSync(file)) return undefined;
  dotenv.config({ path: file, quiet: true });
  return file;
}
