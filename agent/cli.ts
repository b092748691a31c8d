import * as fs from 'node:fs';
import * as path from 'node:path';
import { docPath } from './fs/package-docs';
import { PACKAGE_ROOT } from './fs/package-root';
import { runCommand } from './cli/command';
import { COMMAND_LIST } from './cli/command-list';

function help(): string {
  const width = Math.max(...COMMAND_LIST.map(c => c.name.length));
  return [
    'usage: bwa <command> [options]',
    '',
    'bwa — browser workflow agent (a Playwright Test plugin)',
    '',
    'Run tasks:   npx playwright test --grep @<task_id>',
    '',
    'Commands:',
    ...COMMAND_LIST.map(c => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -c, --config <file>  With any command: the Playwright config whose project it works in (default: this folder)',
    '  -h, --help           Show this help (or `bwa <command> --help`)',
    '  -V, --version        Print the version',
    '',
    `Environment: ${docPath('docs/environment.md')} lists every variable.`,
    `Your first task on your own site: ${docPath('README.md')}#your-first-task-on-your-own-site`,
  ].join('\n');
}

/** `bwa …`: the exit code; usage errors (2) and input errors (1) are printed without a stack. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '-h' || name === '--help' || name === 'help') {
    console.log(help());
    return 0;
  }
  if (name === '--version' || name === '-V') {
    console.log((JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version);
    return 0;
  }
  const command = COMMAND_LIST.find(c => c.name === name);
  if (!command) {
    console.error(`bwa: unknown command "${name}"\nusage: bwa <command> [options] (bwa --help lists the commands)`);
    return 2;
  }
  // Loaded once a command is given: it reads the environment's schemas (zod), which --help never needs.
  const { takeProjectOption } = require('./cli/project-option') as typeof import('./cli/project-option');
  const project = command.name === 'init' ? { rest } : takeProjectOption(rest);
  if ('error' in project) {
    console.error(`bwa ${name}: ${project.error}`);
    return 2;
  }
  // The project's .env (keys, secrets) before the command reads any setting; --help reads none.
  (require('./env/env-file') as typeof import('./env/env-file')).loadEnvFile();
  return runCommand(command.load(), project.rest);
}
