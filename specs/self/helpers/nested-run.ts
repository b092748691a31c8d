import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '../../..');

export interface NestedRunOptions {
  args: string[];
  env?: Record<string, string | undefined>;
  /** Command to run instead of `playwright test` (e.g. ['merge-reports', …]). */
  command?: string[];
}

export interface NestedRunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/** A clean environment for a nested Playwright run: none of this worker's test-runner variables leak in. */
export function nestedEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // The parent run's identity and command line must not leak into the nested run.
    if (/^(TEST_|PW_|PLAYWRIGHT_|FORCE_COLOR|DEBUG_COLORS|AGENT_RUN_ID$|AGENT_INVOCATION_ID$|AGENT_TASK_BLOCKERS$|AGENT_PROJECT_DIR$)/.test(key))
      continue;
    env[key] = value;
  }
  // A trace is recorded, at a CPU cost on every action, even when a passing sample throws it away: the tests
  // that look at traces ask for them (AGENT_TRACE=on).
  env.AGENT_TRACE = 'off';
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  env.CI = '1';
  return env;
}

export function startNested(options: NestedRunOptions): { child: ChildProcess; done: Promise<NestedRunResult>; output: () => string } {
  const command = options.command ?? ['test'];
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'node_modules/@playwright/test/cli.js'), ...command, ...options.args], {
    cwd: PROJECT_ROOT,
    env: nestedEnv(options.env),
    // Its own process group, so a test can SIGKILL the runner together with its workers.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', chunk => (output += String(chunk)));
  child.stderr?.on('data', chunk => (output += String(chunk)));
  const done = new Promise<NestedRunResult>(resolve => child.on('close', (code, signal) => resolve({ code, signal, output })));
  return { child, done, output: () => output };
}

export async function runNested(options: NestedRunOptions): Promise<NestedRunResult> {
  return startNested(options).done;
}

export function killGroup(child: ChildProcess): void {
  if (child.pid) process.kill(-child.pid, 'SIGKILL');
}
