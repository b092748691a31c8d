import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build, buildIsFresh } from '../../../bin/build.cjs';
import { withFileLock } from '../../../agent/fs/file-lock';
import { settings } from '../../../agent/settings';
import { nestedEnv, PROJECT_ROOT } from './nested-run';

/** Builds and packs write dist/ in place: one at a time across the suite's workers. */
const LOCK_TIMEOUT_MS = 300_000;
const lockFile = () => path.join(settings.reportsDir, 'dist.lock');

/** dist/ as the sources are now (the JavaScript only), built unless it is fresh. */
export async function freshBuild(): Promise<void> {
  await withFileLock(lockFile(), LOCK_TIMEOUT_MS, () => {
    if (!buildIsFresh()) build();
  });
}

/** What `npm pack` reads of the checkout (the rest of it is the example project and the self tests). */
const PACKAGE_SOURCES = ['package.json', 'README.md', 'LICENSE', 'tsconfig.json', 'tsconfig.build.json', 'agent', 'bin', 'schema', 'docs'];

/**
 * The package as `npm pack` makes it (its prepack script builds the JavaScript and the declarations), packed once
 * per suite run into the suite's reports folder and reused by every test that installs it. Packed from a copy of
 * the checkout, so its build never replaces the checkout's dist/ under a test that runs it.
 */
export async function packedTarball(): Promise<{ file: string; packOutput: string }> {
  const dir = path.join(settings.reportsDir, 'package');
  return withFileLock(path.join(settings.reportsDir, 'pack.lock'), LOCK_TIMEOUT_MS, async () => {
    const done = path.join(dir, 'pack.json');
    if (fs.existsSync(done)) return JSON.parse(fs.readFileSync(done, 'utf8')) as { file: string; packOutput: string };
    const copy = path.join(dir, 'checkout');
    for (const entry of PACKAGE_SOURCES) fs.cpSync(path.join(PROJECT_ROOT, entry), path.join(copy, entry), { recursive: true });
    fs.symlinkSync(path.join(PROJECT_ROOT, 'node_modules'), path.join(copy, 'node_modules'));
    const run = await runIn(copy, 'npm', ['pack', '--json', '--pack-destination', dir]);
    if (run.code !== 0) throw new Error(`npm pack failed (${run.code}):\n${run.output}`);
    const [packed] = JSON.parse(run.stdout) as Array<{ filename: string }>;
    const result = { file: path.join(dir, packed!.filename), packOutput: run.stdout };
    fs.writeFileSync(done, JSON.stringify(result));
    return result;
  });
}

export interface Ran {
  code: number | null;
  stdout: string;
  output: string;
}

/** A command in a folder of its own, with the clean environment nested runs get plus these variables. */
export function runIn(cwd: string, command: string, args: string[], env: Record<string, string | undefined> = {}): Promise<Ran> {
  const child = spawn(command, args, { cwd, env: nestedEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let output = '';
  child.stdout.on('data', chunk => {
    stdout += String(chunk);
    output += String(chunk);
  });
  child.stderr.on('data', chunk => (output += String(chunk)));
  return new Promise(resolve => child.on('close', code => resolve({ code, stdout, output })));
}
