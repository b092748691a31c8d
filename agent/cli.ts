import 'dotenv/config';
import { authCommand } from './cli/auth';
import { browserServerCommand } from './cli/browser-server';
import { runCommand, type AnyCommand, type CommandGroup } from './cli/command';
import { checkCommand } from './cli/check';
import { discoverCommand } from './cli/discover';
import { initCommand } from './cli/init';
import { planCommand } from './cli/plan';
import { recipeCommand } from './cli/recipe';
import { validateCommand } from './cli/validate';
import { verifyCommand } from './cli/verify';

export const COMMANDS: readonly AnyCommand[] = [
  initCommand,
  validateCommand,
  checkCommand,
  authCommand,
  verifyCommand,
  recipeCommand,
  discoverCommand,
  planCommand,
  browserServerCommand,
];

/** `bwa` itself: the group of every command, parsed, helped and refused like any group. */
const BWA: CommandGroup = {
  name: '',
  summary: 'bwa — browser workflow agent (a Playwright Test plugin)',
  about: [
    'Run tasks:   npx playwright test --grep @<task_id>',
    'Environment: docs/environment.md lists every variable.',
    'Your first task on your own site: README.md#your-first-task-on-your-own-site',
  ].join('\n'),
  subcommands: COMMANDS,
};

/** `bwa …`: the exit code; usage errors (2) and input errors (1) are printed without a stack. */
export async function main(argv: string[]): Promise<number> {
  return runCommand(BWA, argv);
}
