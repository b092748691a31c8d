import { expect, test } from '@playwright/test';
import { COMMAND_LIST, loadCommands } from '../../../agent/cli/command-list';
import { parseCommandLine, runCommand, synopsis, type AnyCommand, type LeafCommand } from '../../../agent/cli/command';
import { serveCommand } from '../../../fixtures/serve';
import { runBwa } from '../helpers/cli-process';
import { printedBy, runBwaInProcess } from '../helpers/cli';
import { SITE } from '../helpers/sites';

/** Every command a person types: bwa's, each sub-command, and the fixture sites' script. */
function leaves(commands: readonly AnyCommand[]): LeafCommand[] {
  return commands.flatMap(command => ('subcommands' in command ? leaves(command.subcommands) : [command]));
}
const ALL = [...loadCommands(), serveCommand];
const LEAVES = leaves(ALL);

/** A value each option and positional takes, by its placeholder or name. */
const GOOD: Record<string, string> = {
  port: '8080',
  n: '5',
  start_url: `${SITE.people}/{{username}}`,
  'name:type': 'price:number',
  site: 'people',
};
const good = (name: string) => GOOD[name] ?? 'demo';
const requiredArgs = (command: LeafCommand) => command.positionals.filter(spec => !spec.optional).map(spec => good(spec.name));
const requiredOptions = (command: LeafCommand) =>
  Object.entries(command.options).flatMap(([name, spec]) => (spec.type === 'string' && spec.required ? [`--${name}=${good(spec.placeholder)}`] : []));

test('the commands are all there: bwa has ten, recipe and auth their sub-commands', () => {
  expect(LEAVES.map(command => command.name)).toEqual([
    'init',
    'validate',
    'check',
    'auth import',
    'verify',
    'recipe compile',
    'recipe export',
    'recipe show',
    'look',
    'discover',
    'plan',
    'browser-server',
    'fixtures/serve.ts',
  ]);
});

test('--help and -h on every command and group print its usage, its summary and every option, exit 0', async () => {
  for (const command of ALL.flatMap(c => ('subcommands' in c ? [c, ...c.subcommands] : [c]))) {
    for (const flag of ['--help', '-h']) {
      const { value: code, stdout: out, stderr: err } = await printedBy(() => runCommand(command, [flag]));
      expect(code, `${command.name} ${flag}`).toBe(0);
      expect(err).toBe('');
      expect(out.split('\n')[0]).toBe(`usage: ${synopsis(command)}`);
      expect(out).toContain(command.summary);
      if (!('subcommands' in command)) for (const option of Object.keys(command.options)) expect(out).toContain(`--${option}`);
    }
  }
  const top = await runBwaInProcess(['--help']);
  expect(top.code).toBe(0);
  for (const command of COMMAND_LIST) expect(top.stdout).toContain(`  ${command.name} `);
});

test('an unknown option is an error in one line, with the usage, exit 2 — on every command', async () => {
  for (const command of LEAVES) {
    const { value: code, stdout: out, stderr: err } = await printedBy(() => runCommand(command, [...requiredArgs(command), '--no-such-option']));
    expect(code, command.name).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(`${command.program ?? 'bwa'} ${command.name}: unknown option --no-such-option\nusage: ${synopsis(command)}`);
  }
});

test('--flag=value and --flag value mean the same, for every option that takes a value', () => {
  let checked = 0;
  for (const command of LEAVES) {
    for (const [name, spec] of Object.entries(command.options)) {
      if (spec.type !== 'string') continue;
      const base = [...requiredArgs(command), ...requiredOptions(command).filter(option => !option.startsWith(`--${name}=`))];
      const joined = parseCommandLine(command, [...base, `--${name}=${good(spec.placeholder)}`]);
      const apart = parseCommandLine(command, [...base, `--${name}`, good(spec.placeholder)]);
      expect(joined, `${command.name} --${name}`).toEqual(apart);
      expect(joined).not.toBe('help');
      checked += 1;
    }
  }
  expect(checked).toBeGreaterThanOrEqual(9);
});

test('values with a shape are checked: the error names the option or argument and what it takes', async () => {
  const cases: Array<[string[], string]> = [
    [['discover', 'org_members', '--max-items', '0'], 'bwa discover: --max-items must be a whole number ≥ 1 (got "0")'],
    [['browser-server', '--port=65536'], 'bwa browser-server: --port must be a whole number from 0 to 65535 (got "65536")'],
    [['browser-server', '--port', '-1'], 'bwa browser-server: --port needs a value (one that starts with "-" is given as --port=<value>)'],
    [
      ['init', 'Demo', '--url', 'http://127.0.0.1/'],
      'bwa init: <task_id> must be lowercase letters, digits, "_" or "-", starting with a letter or digit, at most 64 chars (got "Demo")',
    ],
    [['init', 'demo', '--url', 'example.com'], 'bwa init: --url must be an http(s) URL ({{column}} templates allowed) (got "example.com")'],
    [['init', 'demo', '--url=http://127.0.0.1/', '--field', 'price:money'], 'bwa init: --field must be name:type'],
    [['init', 'demo'], 'bwa init: --url <start_url> is required'],
    [
      ['auth', 'import', 'my profile', 'state.json'],
      'bwa auth import: <profile> must be a plain name (letters, digits, "_", "-") (got "my profile")',
    ],
    [['discover', 'org_members', '--force=yes'], 'bwa discover: --force takes no value'],
    [['verify'], 'bwa verify: missing <run>'],
    [['recipe', 'show', 'a', 'b'], 'bwa recipe show: unexpected argument "b"'],
    [['recipe', 'publish'], 'bwa recipe: unknown command "publish"'],
  ];
  for (const [argv, message] of cases) {
    const { code, stderr: err } = await runBwaInProcess(argv);
    expect(code, argv.join(' ')).toBe(2);
    expect(err.split('\n')).toHaveLength(2);
    expect(err.split('\n')[0]).toContain(message);
    expect(err.split('\n')[1]).toMatch(/^usage: bwa /);
  }
  const unknown = await runBwaInProcess(['publish']);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('bwa: unknown command "publish"');
});

test('through the bin: a bad option prints no stack, exit 2', async () => {
  const run = await runBwa(['discover', 'org_members', '--max-items=many']);
  expect(run.code).toBe(2);
  expect(run.stderr).toBe(
    'bwa discover: --max-items must be a whole number ≥ 1 (got "many")\nusage: bwa discover <task_id> [--force] [--max-items <n>]\n',
  );
  expect(run.stdout).toBe('');
});
