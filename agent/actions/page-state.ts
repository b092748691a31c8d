import { z } from 'zod';
import { ActionError, defineAction, type ActionEnv, type PageStateAccess } from './types';

function access(env: ActionEnv): PageStateAccess {
  if (!env.pageState) throw new ActionError('The page state is not available here (a recipe replay reads no page state)');
  return env.pageState;
}

export const expand = defineAction({
  name: 'expand',
  description: 'Open a "(collapsed: …)" line: the next page state lists what it holds. Does not touch the page.',
  verifies: 'The ref is in the latest page state (a collapsed line, or any element, whose whole content is then listed); nothing on the page changes.',
  schema: z.object({ target: z.string().min(1).describe('The collapsed line\'s ref') }),
  pageStateOnly: true,
  async handle(args, env) {
    return { description: access(env).expand(args.target) };
  },
});

export const find = defineAction({
  name: 'find',
  description: 'Search the whole page, collapsed parts included, for elements with these words. Does not touch the page.',
  verifies: 'Searches the latest reading of the whole page; no match is said as such, never an empty success; nothing on the page changes.',
  schema: z.object({ text: z.string().min(1).describe('Words to find (case-insensitive)') }),
  pageStateOnly: true,
  async handle(args, env) {
    return { description: access(env).find(args.text) };
  },
});
