import type { AnyCommand } from './command';
import { LISTING, type CommandName } from './listing';

/**
 * A command's module (with Playwright, the model client, zod and the task loader behind it) loads only when that
 * command is given, so `bwa --help` starts at once. `require`, not `import()`: from CommonJS (the build, tsx,
 * Playwright's loader) a dynamic import goes through Node's ESM resolver, which wants file extensions the sources
 * do not write.
 */
const LOADERS: Record<CommandName, () => AnyCommand> = {
  init: () => (require('./init') as typeof import('./init')).initCommand,
  validate: () => (require('./validate') as typeof import('./validate')).validateCommand,
  check: () => (require('./check') as typeof import('./check')).checkCommand,
  auth: () => (require('./auth') as typeof import('./auth')).authCommand,
  verify: () => (require('./verify') as typeof import('./verify')).verifyCommand,
  recipe: () => (require('./recipe') as typeof import('./recipe')).recipeCommand,
  look: () => (require('./look') as typeof import('./look')).lookCommand,
  discover: () => (require('./discover') as typeof import('./discover')).discoverCommand,
  plan: () => (require('./plan') as typeof import('./plan')).planCommand,
  'browser-server': () => (require('./browser-server') as typeof import('./browser-server')).browserServerCommand,
};

/** Every bwa command, as `bwa --help` lists it, and how to load it. */
export const COMMAND_LIST = LISTING.map(command => ({ ...command, load: LOADERS[command.name] }));

/** Every command's module, loaded (tests and help checks; a run loads only its own). */
export function loadCommands(): AnyCommand[] {
  return COMMAND_LIST.map(command => command.load());
}
