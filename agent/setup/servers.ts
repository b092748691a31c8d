import { spawn, type ChildProcess } from 'node:child_process';
import type { TaskSpec } from '../task/schema';
import { setTimeout as sleep } from 'node:timers/promises';

type WebServer = TaskSpec['web_servers'][number];

export interface StartedServers {
  /** Server URL → why it is not up (the tasks that need it fail with this). */
  failures: Map<string, string>;
  stop: () => Promise<void>;
}

const POLL_MS = 200;
const OUTPUT_KEPT = 2_000;

/**
 * Starts the local servers the selected tasks declare (`web_servers`), each once, like Playwright's webServer with
 * reuseExistingServer — but a server that cannot start fails only the tasks that need it, not the whole run.
 */
export async function startServers(servers: readonly WebServer[], cwd: string, log: (line: string) => void): Promise<StartedServers> {
  const unique = [...new Map(servers.map(server => [server.url, server])).values()];
  const failures = new Map<string, string>();
  const children: ChildProcess[] = [];
  await Promise.all(
    unique.map(async server => {
      if (await answers(server.url)) return;
      const started = await start(server, cwd);
      if (started.child) children.push(started.child);
      if (started.error) failures.set(server.url, started.error);
      else log(`bwa: started ${server.command} (${server.url})`);
    }),
  );
  return {
    failures,
    stop: async () => {
      await Promise.all(children.map(stopGroup));
    },
  };
}

async function start(server: WebServer, cwd: string): Promise<{ child?: ChildProcess; error?: string }> {
  // Its own process group: `npx tsx …` runs the server in a grandchild that must stop with it.
  const child = spawn(server.command, { cwd, shell: true, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + String(chunk)).slice(-OUTPUT_KEPT));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null | undefined;
  child.on('exit', code => (exited = code));
  const deadline = Date.now() + server.timeout_seconds * 1000;
  while (Date.now() < deadline) {
    if (await answers(server.url)) return { child };
    if (exited !== undefined)
      return {
        error: `\`${server.command}\` exited (code ${exited}) before ${server.url} answered: ${lastLine(output) || 'no output'} — is another program using that port?`,
      };
    await sleep(POLL_MS);
  }
  await stopGroup(child);
  return {
    error: `\`${server.command}\` did not make ${server.url} answer within ${server.timeout_seconds}s${output ? `: ${lastLine(output)}` : ''}`,
  };
}

/** Up = any answer below 400 (the URL is the server's health page). */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return response.status < 400;
  } catch {
    return false;
  }
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (!child.pid || child.exitCode !== null) return;
  const exited = new Promise(resolve => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([exited, sleep(5_000)]);
}

/** The line that says what went wrong (a stack trace's error line), else the last one. */
function lastLine(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .map(line => line.trim())
    .filter(Boolean);
  return lines.findLast(line => /^(\w*Error\b|E[A-Z]{3,}\b)/.test(line)) ?? lines.at(-1) ?? '';
}
