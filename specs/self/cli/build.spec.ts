import { expect, test } from '@playwright/test';
import * as path from 'node:path';
import { BUILT_CLI, buildIsFresh } from '../../../bin/build.cjs';
import { COMMAND_LIST } from '../../../agent/cli/command-list';
import { PROJECT_ROOT } from '../helpers/nested-run';
import { runBwa, runCommand } from '../helpers/cli-process';
import { freshBuild } from '../helpers/package-build';

/** The CLI from the TypeScript sources, through tsx: what `bwa` ran before the build, and what development runs. */
const runSources = (args: string[]) =>
  runCommand(process.execPath, [
    '--require',
    'tsx/cjs',
    '--eval',
    `require('./agent/cli.ts').main(${JSON.stringify(args)}).then(code => { process.exitCode = code; })`,
  ]);

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(300_000);
  await freshBuild();
});

test('after a build no source is newer: `bwa` runs the build, not stale code', () => {
  expect(buildIsFresh(), 'dist/ is older than agent/').toBe(true);
});

test('the built bwa prints what the sources print: --help, a command group, validate', async () => {
  // Three commands through both: tsx takes a few seconds a start on a loaded machine.
  test.setTimeout(180_000);
  for (const args of [['--help'], ['recipe', '--help'], ['validate'], ['no-such-command']]) {
    const [built, sources] = await Promise.all([runBwa(args), runSources(args)]);
    expect(built, args.join(' ')).toEqual(sources);
  }
});

test('bwa --help loads no command: neither Playwright, the model client, zod nor the task loader', async () => {
  const listLoaded = `require(${JSON.stringify(BUILT_CLI)}).main(['--help']).then(() => console.error(JSON.stringify(Object.keys(require.cache))))`;
  const { code, stderr } = await runCommand(process.execPath, ['--eval', listLoaded]);
  expect(code).toBe(0);
  const loaded = (JSON.parse(stderr) as string[]).map(file => path.relative(PROJECT_ROOT, file));
  const packages = new Set(loaded.flatMap(file => /node_modules[\\/]((@[^\\/]+[\\/])?[^\\/]+)/.exec(file)?.[1] ?? []));
  expect([...packages], 'packages loaded (.env is read once a command is given)').toEqual([]);
  const commandModules = COMMAND_LIST.map(command => path.join('dist', 'agent', 'cli', `${command.name}.js`));
  expect(loaded.filter(file => commandModules.includes(file))).toEqual([]);
  expect(loaded).toContain(path.join('dist', 'agent', 'cli', 'command-list.js'));
});
