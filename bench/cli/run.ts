/**
 * Command start-up: how long `bwa --help` and `bwa validate` take as a fresh process, best of N, beside the floor
 * every Playwright plugin pays (`node -e "require('@playwright/test')"`), in one run: as installed (the build
 * `npm ci` made), from the TypeScript sources through tsx (development), and with --baseline <git-ref> as that ref
 * ran them (exported with `git archive` into a temp folder that borrows this checkout's node_modules). The rounds
 * take the variants in turn, so a change in the machine's load falls on all of them alike. Beside the wall time,
 * the CPU time each start took (user + system, read from the reaped child): on a shared machine it stays what an
 * idle one would spend, where the wall time grows with the load.
 *
 * Usage: npx tsx bench/cli/run.ts [--runs 7] [--baseline <git-ref>]
 */
import { execFileSync, execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BUILT_CLI, buildIsFresh } from '../../bin/build.cjs';
import { loadAverage, reapedChildrenCpuSeconds } from '../lib/cpu';
import { median, table } from '../lib/stats';

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

interface Variant {
  name: string;
  argv: string[];
}

const bwa = (bin: string, ...args: string[]) => [bin, ...args];
/** What every `bwa` command was before the build: the sources compiled on load by tsx. */
const throughTsx = (root: string, ...args: string[]) => [
  '--require',
  'tsx/cjs',
  '--eval',
  `require(${JSON.stringify(path.join(root, 'agent/cli.ts'))}).main(${JSON.stringify(args)}).then(code => { process.exitCode = code; })`,
];

function exportRef(ref: string): string {
  const sha = execSync(`git rev-parse ${ref}`, { encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `bwa-cli-${sha.slice(0, 12)}`);
  if (!fs.existsSync(path.join(dir, 'bin', 'bwa.cjs'))) {
    fs.mkdirSync(dir, { recursive: true });
    execSync(`git archive ${sha} | tar -x -C ${JSON.stringify(dir)}`);
  }
  if (!fs.existsSync(path.join(dir, 'node_modules'))) fs.symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

interface Start {
  wallMs: number;
  cpuMs: number;
}

function start(argv: string[]): Start {
  const cpuBefore = reapedChildrenCpuSeconds();
  const started = process.hrtime.bigint();
  try {
    execFileSync(process.execPath, argv, { stdio: 'ignore' });
  } catch {
    // `validate` exits 1 when a task cannot run: the time to say so is what is measured.
  }
  return { wallMs: Number(process.hrtime.bigint() - started) / 1e6, cpuMs: (reapedChildrenCpuSeconds() - cpuBefore) * 1000 };
}

function main(): void {
  const runs = Number(arg('runs') ?? 7);
  const baseline = arg('baseline');
  if (!buildIsFresh()) throw new Error('dist/ is older than agent/: run `npm run build` first (npm ci does)');
  const bin = path.resolve('bin/bwa.cjs');
  const variants: Variant[] = [
    { name: `node -e "require('@playwright/test')"`, argv: ['-e', "require('@playwright/test')"] },
    { name: 'bwa --help (the build)', argv: bwa(bin, '--help') },
    { name: 'bwa validate (the build)', argv: bwa(bin, 'validate') },
    { name: 'bwa --help (sources through tsx)', argv: throughTsx(process.cwd(), '--help') },
    { name: 'bwa validate (sources through tsx)', argv: throughTsx(process.cwd(), 'validate') },
  ];
  if (baseline) {
    const old = path.join(exportRef(baseline), 'bin', 'bwa.cjs');
    variants.push({ name: `bwa --help (${baseline})`, argv: bwa(old, '--help') }, { name: `bwa validate (${baseline})`, argv: bwa(old, 'validate') });
  }
  // Warm the file cache and tsx's compile cache: a first start pays for both once, not each time.
  for (const variant of variants) start(variant.argv);
  const starts = variants.map(() => [] as Start[]);
  for (let round = 0; round < runs; round++) variants.forEach((variant, i) => starts[i]!.push(start(variant.argv)));
  const wall = starts.map(s => Math.min(...s.map(one => one.wallMs)));
  const cpu = starts.map(s => median(s.map(one => one.cpuMs)));
  const ratio = (value: number, floor: number) => `${(value / floor).toFixed(2)}×`;
  console.log(
    `command start-up, ${runs} rounds, load average ${loadAverage()} on ${os.cpus().length} cores; the build is ${path.relative(process.cwd(), BUILT_CLI)}\n`,
  );
  console.log(
    table(
      ['command', 'best wall ms', "× require('@playwright/test')", 'median CPU ms', "× require('@playwright/test')"],
      variants.map((variant, i) => [variant.name, Math.round(wall[i]!), ratio(wall[i]!, wall[0]!), Math.round(cpu[i]!), ratio(cpu[i]!, cpu[0]!)]),
    ),
  );
}

main();
