import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { nestedEnv, PROJECT_ROOT } from './nested-run';
import { freshBuild } from './package-build';

export interface RunningBrowserServer {
  endpoint: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM, then the command's exit code once it has closed its browser. */
  stop(): Promise<number | null>;
}

const STARTUP_TIMEOUT_MS = 90_000;

/** `bwa browser-server` as a user starts it (the package's bin), resolved once it has printed its endpoint. */
export async function startBrowserServer(args: string[] = [], env: Record<string, string | undefined> = {}): Promise<RunningBrowserServer> {
  await freshBuild();
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'bin/bwa.cjs'), 'browser-server', ...args], {
    cwd: PROJECT_ROOT,
    env: nestedEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>(resolve => child.on('close', code => resolve(code)));
  const endpoint = await new Promise<string>((resolve, reject) => {
    // Loading the CLI through tsx and launching Chromium took over 30 s on the shared 2-core machine at load 40.
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`bwa browser-server printed no endpoint within ${STARTUP_TIMEOUT_MS / 1000} s:\n${output}`));
    }, STARTUP_TIMEOUT_MS);
    const read = (chunk: Buffer) => {
      output += String(chunk);
      const found = /^endpoint: (\S+)$/m.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then(code => reject(new Error(`bwa browser-server exited (${code}) before printing its endpoint:\n${output}`)));
  });
  return {
    endpoint,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
