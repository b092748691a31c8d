import { expect, test } from '@playwright/test';
import type { FullConfig } from '@playwright/test';
import globalSetup from '../../../agent/setup/global-setup';
import { checkEnvironment } from '../../../agent/env/read';
import { setEnv } from '../helpers/env';
import { runNested } from '../helpers/nested-run';
import { runBwa } from '../helpers/cli-process';

/** Two values the schema rejects, one read only after a sample's loop (AGENT_RECORD), one at config load (AGENT_RETRIES). */
const BAD = { AGENT_RECORD: 'maybe', AGENT_RETRIES: '-1' };
const LINES = [
  'bwa: BWA_ENV: AGENT_RECORD must be a switch: 1, 0, true, false, on, off, yes or no (got "maybe")',
  'bwa: BWA_ENV: AGENT_RETRIES must be a whole number ≥ 0 (got "-1")',
];

test('checkEnvironment reads every variable at once: one error per rejected value, none for the defaults', () => {
  expect(checkEnvironment({})).toEqual([]);
  expect(checkEnvironment({ ...BAD, AGENT_JUDGE: 'batch' }).map(error => error.variable)).toEqual(['AGENT_RECORD', 'AGENT_RETRIES']);
});

test('a bad variable stops playwright test at config load: one line per variable, no stack, exit 2, nothing listed or run', async () => {
  const run = await runNested({ args: ['--list'], env: BAD });
  expect(run.code, run.output).toBe(2);
  expect(run.output.trim().split('\n')).toEqual(LINES);
});

test("globalSetup checks the environment too (a config of the user's own): the same lines, exit 2, before anything starts", async () => {
  const printed: string[] = [];
  const exit = process.exit.bind(process);
  const { error } = console;
  const restoreEnv = setEnv(BAD);
  console.error = (...parts: unknown[]) => printed.push(parts.join(' '));
  process.exit = ((code: number) => {
    throw new Error(`exit ${code}`);
  }) as typeof process.exit;
  try {
    await expect(globalSetup({ projects: [], argv: [] } as unknown as FullConfig)).rejects.toThrow('exit 2');
  } finally {
    process.exit = exit;
    console.error = error;
    restoreEnv();
  }
  expect(printed).toEqual(LINES);
});

test('bwa validate lists every bad variable and exits 1', async () => {
  const run = await runBwa(['validate'], BAD);
  expect(run.code, run.stderr).toBe(1);
  expect(run.stdout).toContain(LINES[0]!.replace('bwa: ', '✗ '));
  expect(run.stdout).toContain(LINES[1]!.replace('bwa: ', '✗ '));
  expect(run.stdout).toContain('2 environment variable(s) a run would refuse to start with');
});
