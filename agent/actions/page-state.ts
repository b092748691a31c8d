import { z } from 'zod';
import { ActionError, defineAction, type ActionEnv, type PageStateAccess } from './core/types';

function access(env: ActionEnv): PageStateAccess {
  if (!env.pageState) throw new ActionError('The page state is not available here (a recipe replay reads no page state)');
  return env.pageState;
}

export const expand = defineAction({
  name: 'expand',
  description: 'List what a "(collapsed: …)" line holds in the next page state (the page is not touched).',
  verifies:
    'The ref is in the latest page state (a collapsed line, or any element, whose whole content is then listed); nothing on the page changes.',
  schema: z.object({ target: z.string().min(1).describe("The collapsed line's ref") }),
  pageStateOnly: true,
  async handle(args, env) {
    return { description: access(env).expand(args.target) };
  },
});

export const find = defineAction({
  name: 'find',
  description: 'Find elements with these words (any case) anywhere on the page, collapsed parts included (the page is not touched).',
  verifies: 'Searches the latest reading of the whole page; no match is said as such, never an empty success; nothing on the page changes.',
  schema: z.object({ text: z.string().min(1).describe('Words to find') }),
  pageStateOnly: true,
  async handle(args, env) {
    return { description: access(env).find(args.text) };
  },
});
