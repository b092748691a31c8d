import 'dotenv/config';
import { authCommand } from './cli/auth';
import { browserServerCommand } from './cli/browser-server';
import { discoverCommand } from './cli/discover';
import { initCommand } from './cli/init';
import { planCommand } from './cli/plan';
import { validateCommand } from './cli/validate';
import { verifyCommand } from './cli/verify';
import { recipeCommand } from './cli/recipe';
import { BwaInputError } from './task/input-errors';

export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[]): Promise<number>;
}

const COMMANDS: Command[] = [
  initCommand,
  validateCommand,
  authCommand,
  verifyCommand,
  recipeCommand,
  discoverCommand,
  planCommand,
  browserServerCommand,
];

function help(): string {
  const width = Math.max(...COMMANDS.map(c => c.name.length));
  return [
    'bwa — browser workflow agent (a Playwright Test plugin)',
    '',
    'Run tasks:   npx playwright test --grep @<task_id>',
    '',
    'Commands:',
    ...COMMANDS.map(c => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Options:',
    '  -h, --help  Show this help (or `bwa <command> --help`)',
    '',
    'Environment: see README.md ("Environment variables").',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '-h' || name === '--help' || name === 'help') {
    console.log(help());
    return 0;
  }
  const command = COMMANDS.find(c => c.name === name);
  if (!command) {
    console.error(`bwa: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(`${command.usage}\n\n${command.summary}`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof BwaInputError) {
      console.error(`bwa ${name}: ${error.code}\n${error.message}`);
      return 1;
    }
    throw error;
  }
}
