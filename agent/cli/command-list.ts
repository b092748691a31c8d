import type { AnyCommand } from './command';

interface Listed {
  name: string;
  summary: string;
  /** The command's module: loaded only when the command runs (or prints its own help). */
  load(): AnyCommand;
}

/**
 * Every bwa command, as `bwa --help` lists it. A command's module (with Playwright, the model client, zod and the
 * task loader behind it) loads only when that command is given, so `bwa --help` starts at once. `require`, not
 * `import()`: from CommonJS (the build, tsx, Playwright's loader) a dynamic import goes through Node's ESM resolver,
 * which wants file extensions the sources do not write.
 */
export const COMMAND_LIST: readonly Listed[] = [
  {
    name: 'init',
    summary: 'Start a task for your own site: a task spec and samples CSV with sensible defaults (never overwrites)',
    load: () => (require('./init') as typeof import('./init')).initCommand,
  },
  {
    name: 'validate',
    summary: 'Check every task spec, recipe, sign-in profile and samples CSV; list what would run and what cannot',
    load: () => (require('./validate') as typeof import('./validate')).validateCommand,
  },
  {
    name: 'auth',
    summary: 'Sign-in profiles: `bwa auth import <profile> <file>` uses a storage state saved by `npx playwright codegen --save-storage`',
    load: () => (require('./auth') as typeof import('./auth')).authCommand,
  },
  {
    name: 'verify',
    summary: "Re-hash a run's evidence against manifest.json and each result.json (exit 1 on any mismatch)",
    load: () => (require('./verify') as typeof import('./verify')).verifyCommand,
  },
  {
    name: 'recipe',
    summary: 'Compile a replayable recipe from an agent run, show it, or export it as a Playwright spec',
    load: () => (require('./recipe') as typeof import('./recipe')).recipeCommand,
  },
  {
    name: 'discover',
    summary: "Write a task's samples by browsing its listing (tasks with a discover block)",
    load: () => (require('./discover') as typeof import('./discover')).discoverCommand,
  },
  {
    name: 'plan',
    summary: 'Write a task spec and its samples from a plain-English request (needs ANTHROPIC_API_KEY)',
    load: () => (require('./plan') as typeof import('./plan')).planCommand,
  },
  {
    name: 'browser-server',
    summary: 'Serve Chromium to runners on other machines (they set AGENT_BROWSER_WS to the endpoint it prints)',
    load: () => (require('./browser-server') as typeof import('./browser-server')).browserServerCommand,
  },
];

/** A top-level command's name and summary, for its module to define it with: said once, here. */
export function listed(name: string): { name: string; summary: string } {
  const entry = COMMAND_LIST.find(command => command.name === name);
  if (!entry) throw new Error(`bwa has no command "${name}" in COMMAND_LIST`);
  return { name: entry.name, summary: entry.summary };
}

/** Every command's module, loaded (tests and help checks; a run loads only its own). */
export function loadCommands(): AnyCommand[] {
  return COMMAND_LIST.map(command => command.load());
}
