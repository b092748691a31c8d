import { main } from '../../../agent/cli';
import { withEnv, type EnvChanges } from './env';

/** What a body printed while it ran: console.log's lines, console.error's, and both in the order a terminal shows them. */
export interface Printed {
  stdout: string;
  stderr: string;
  printed: string;
}

/**
 * `bwa <args>` in this process (the CLI's own main), with these variables set meanwhile: its exit code and what it
 * printed. `runBwa` (cli-process.ts) for what only a process shows.
 */
export async function runBwaInProcess(args: string[], env: EnvChanges = {}): Promise<Printed & { code: number }> {
  const { value, ...printed } = await withEnv(env, () => printedBy(() => main(args)));
  return { code: value, ...printed };
}

/** What `run` returns, with what it printed meanwhile through console.log (stdout) and console.error (stderr). */
export async function printedBy<T>(run: () => T | Promise<T>): Promise<Printed & { value: T }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const both: string[] = [];
  const { log, error } = console;
  const to =
    (stream: string[]) =>
    (...parts: unknown[]) => {
      stream.push(parts.join(' '));
      both.push(parts.join(' '));
    };
  console.log = to(stdout);
  console.error = to(stderr);
  try {
    const value = await run();
    return { value, stdout: stdout.join('\n'), stderr: stderr.join('\n'), printed: both.join('\n') };
  } finally {
    Object.assign(console, { log, error });
  }
}
