import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { nestedEnv, PROJECT_ROOT } from './nested-run';
import { freshBuild } from './package-build';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command from the project root with a clean environment (plus extra variables). */
export function runCommand(command: string, args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env: nestedEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', chunk => (stdout += String(chunk)));
  child.stderr.on('data', chunk => (stderr += String(chunk)));
  return new Promise(resolve => child.on('close', code => resolve({ code, stdout, stderr })));
}

/**
 * `npx bwa …` without npx: the package's bin, run by this Node. A process costs a second or two of CPU: for what
 * only a process shows (the bin, its exit code, what a child inherits); `runBwaInProcess` for the rest.
 */
export async function runBwa(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  // The bin runs the build when it is fresh (tsx otherwise, seconds slower a start): built once for the suite.
  await freshBuild();
  return runCommand(process.execPath, [path.join(PROJECT_ROOT, 'bin/bwa.cjs'), ...args], env);
}
