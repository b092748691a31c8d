import { parseArgs } from 'node:util';
import type { TextKind as ValueKind } from '../env/kinds';
import { EnvError } from '../env/env-error';
import { BwaInputError } from '../task/input-errors';

export type OptionSpec =
  | { type: 'boolean'; help: string }
  | { type: 'string'; help: string; placeholder: string; multiple?: boolean; required?: boolean; value?: ValueKind };

export interface PositionalSpec {
  name: string;
  optional?: boolean;
  /** Takes every remaining argument (the words of a sentence). */
  rest?: boolean;
  value?: ValueKind;
  /** Said after "missing <name>": e.g. the names it could be. */
  hint?: () => string;
}

type Options = Record<string, OptionSpec>;
type Given<S extends OptionSpec> = S extends { value: ValueKind<infer T> } ? T : S extends { type: 'boolean' } ? boolean : string;
type OptionValue<S extends OptionSpec> = S extends { multiple: true }
  ? Array<Given<S>>
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { required: true }
      ? Given<S>
      : Given<S> | undefined;
export type OptionValues<O extends Options> = { [K in keyof O]: OptionValue<O[K]> };

type Positionals = readonly PositionalSpec[];
type PositionalValue<S extends PositionalSpec> = S extends { rest: true } ? string[] : S extends { optional: true } ? string | undefined : string;
export type PositionalValues<P extends Positionals> = { [S in P[number] as S['name']]: PositionalValue<S> };

export interface CommandLine<O extends Options, P extends Positionals> {
  options: OptionValues<O>;
  /** The positional arguments by name. */
  args: PositionalValues<P>;
}

interface CommandBase {
  /** As typed after `bwa`: `discover`, or `recipe export` for a sub-command. */
  name: string;
  summary: string;
  /** What is typed before the name, when it is not `bwa` (a script of the project). */
  program?: string;
  /** Paragraphs `--help` prints after the summary. */
  about?: string;
}

export interface LeafCommand<O extends Options = Options, P extends Positionals = Positionals> extends CommandBase {
  options: O;
  positionals: P;
  run(line: CommandLine<O, P>): Promise<number>;
}

export interface CommandGroup extends CommandBase {
  subcommands: readonly AnyCommand[];
}

export type AnyCommand = LeafCommand | CommandGroup;

/** Typed options for the command's run, inferred from its option specs. */
export function defineCommand<const O extends Options, const P extends Positionals>(command: LeafCommand<O, P>): LeafCommand<O, P> {
  return command;
}

/** Arguments the command does not take: printed in one line with the command's usage, exit code 2. */
export class UsageError extends BwaInputError {
  /** The command whose usage to print: set by invoke() as the error passes it. */
  command?: AnyCommand;
  constructor(message: string) {
    super('BWA_USAGE', message);
    this.name = 'UsageError';
  }
}

/** Runs the command and prints what stops it: a usage error in one line with the command's usage (exit 2), an input error by its code (exit 1). */
export async function runCommand(command: AnyCommand, args: readonly string[]): Promise<number> {
  try {
    return await invoke(command, args);
  } catch (error) {
    if (error instanceof UsageError) {
      const failed = error.command ?? command;
      console.error(`${typedAs(failed)}: ${error.message}\nusage: ${synopsis(failed)}`);
      return 2;
    }
    if (error instanceof BwaInputError || error instanceof EnvError) {
      console.error(`${typedAs(command)}: ${error.code}\n${error.message}`);
      return 1;
    }
    throw error;
  }
}

const programOf = (command: AnyCommand) => command.program ?? 'bwa';
/** `bwa discover`, `bwa recipe show`, or `bwa` itself (the group of every command, named ""). */
const typedAs = (command: AnyCommand) => [programOf(command), command.name].filter(Boolean).join(' ');

/** Runs the command, or the sub-command its first argument names, on the arguments; `--help` prints its help. */
export async function invoke(command: AnyCommand, args: readonly string[]): Promise<number> {
  try {
    if ('subcommands' in command) {
      const [word, ...rest] = args;
      if (word === '-h' || word === '--help' || word === 'help') {
        console.log(commandHelp(command));
        return 0;
      }
      if (!word) throw new UsageError('which command?');
      const sub = command.subcommands.find(candidate => candidate.name === [command.name, word].filter(Boolean).join(' '));
      if (!sub) throw new UsageError(`unknown command "${word}"`);
      return await invoke(sub, rest);
    }
    const line = parseCommandLine(command, args);
    if (line === 'help') {
      console.log(commandHelp(command));
      return 0;
    }
    return await command.run(line);
  } catch (error) {
    if (error instanceof UsageError) error.command ??= command;
    throw error;
  }
}

const HELP = { type: 'boolean', short: 'h' } as const;

/** The command's options and positionals, checked: unknown options, missing values and values of the wrong shape throw UsageError. */
export function parseCommandLine<O extends Options, P extends Positionals>(
  command: LeafCommand<O, P>,
  args: readonly string[],
): CommandLine<O, P> | 'help' {
  const config = Object.fromEntries(
    Object.entries(command.options).map(([name, spec]) => [
      name,
      spec.type === 'string' ? { type: 'string', multiple: spec.multiple ?? false } : { type: 'boolean' },
    ]),
  ) as Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>;
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { ...config, help: HELP }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(describeParseError(error));
  }
  if (parsed.values.help) return 'help';
  const options: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(command.options)) {
    const given = (parsed.values as Record<string, string | string[] | boolean | undefined>)[name];
    if (spec.type === 'boolean') options[name] = given === true;
    else if (given === undefined) {
      if (spec.required) throw new UsageError(`--${name} <${spec.placeholder}> is required`);
      options[name] = spec.multiple ? [] : undefined;
    } else if (Array.isArray(given)) options[name] = given.map(text => checked(`--${name}`, text, spec.value));
    else options[name] = checked(`--${name}`, String(given), spec.value);
  }
  return { options: options as OptionValues<O>, args: namedPositionals(command.positionals, parsed.positionals) as PositionalValues<P> };
}

function namedPositionals(specs: Positionals, given: string[]): Record<string, string | string[] | undefined> {
  const named: Record<string, string | string[] | undefined> = {};
  specs.forEach((spec, index) => {
    const texts = spec.rest ? given.slice(index) : given.slice(index, index + 1);
    if (!texts.length && !spec.optional) throw new UsageError(`missing <${spec.name}>${spec.hint ? ` ${spec.hint()}` : ''}`);
    for (const text of texts) checked(`<${spec.name}>`, text, spec.value);
    named[spec.name] = spec.rest ? texts : texts[0];
  });
  if (!specs.some(spec => spec.rest) && given.length > specs.length) throw new UsageError(`unexpected argument "${given[specs.length]}"`);
  return named;
}

function checked(what: string, text: string, kind: ValueKind | undefined): unknown {
  if (!kind) return text;
  const parsed = kind.schema.safeParse(text);
  if (!parsed.success) throw new UsageError(`${what} must be ${kind.takes} (got "${text}")`);
  return parsed.data;
}

/** node:util's messages run over several lines and suggest syntax: one line naming the option instead. */
function describeParseError(error: unknown): string {
  const { code, message } = error as { code?: string; message: string };
  const option = /'(-{1,2}[^' =]+)/.exec(message)?.[1] ?? 'an option';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    if (message.includes('does not take an argument')) return `${option} takes no value`;
    if (message.includes('ambiguous')) return `${option} needs a value (one that starts with "-" is given as ${option}=<value>)`;
    return `${option} needs a value`;
  }
  return message.split('\n')[0]!;
}

/** `bwa discover <task_id> [--force] [--max-items <n>]`, from the specs. */
export function synopsis(command: AnyCommand): string {
  if ('subcommands' in command) return `${typedAs(command)} <${command.subcommands.map(sub => sub.name.split(' ').at(-1)).join('|')}> …`;
  const positionals = command.positionals.map(spec => {
    const name = spec.rest ? `<${spec.name}> …` : `<${spec.name}>`;
    return spec.optional ? `[${name}]` : name;
  });
  const options = Object.entries(command.options as Options).map(([name, spec]) => {
    const text = spec.type === 'string' ? `--${name} <${spec.placeholder}>${spec.multiple ? ' …' : ''}` : `--${name}`;
    return spec.type === 'string' && spec.required ? text : `[${text}]`;
  });
  return [typedAs(command), ...positionals, ...options].join(' ');
}

export function commandHelp(command: AnyCommand): string {
  const lines = [`usage: ${synopsis(command)}`, '', command.summary];
  if (command.about) lines.push('', command.about);
  if ('subcommands' in command) {
    const width = Math.max(...command.subcommands.map(sub => synopsis(sub).length));
    lines.push('', 'Commands:', ...command.subcommands.map(sub => `  ${synopsis(sub).padEnd(width)}  ${sub.summary}`));
    lines.push('', `${typedAs(command)} <command> --help says more about each.`);
    return lines.join('\n');
  }
  const rows: Array<[string, string]> = [
    ...Object.entries(command.options as Options).map(([name, spec]): [string, string] => [
      spec.type === 'string' ? `--${name} <${spec.placeholder}>` : `--${name}`,
      spec.help,
    ]),
    ['-h, --help', 'show this help'],
  ];
  const width = Math.max(...rows.map(([left]) => left.length));
  lines.push('', 'Options:', ...rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`));
  return lines.join('\n');
}
