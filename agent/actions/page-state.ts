import { z } from 'zod';
import { ActionError, defineAction, type ActionEnv, type PageStateAccess } from './types';

function access(env: ActionEnv): PageStateAccess {
  if (!env.pageState) throw new ActionError('The page state is not available here (a recipe replay reads no page state)');
  return env.pageState;
}

export const expand = defineAction({
  name: 'expand',
  description: 'Open a "(collapsed: …)" line: the next page state lists what it holds, with refs. Does not touch the page.',
  schema: z.object({ target: z.string().min(1).describe('The collapsed line\'s ref') }),
  pageStateOnly: true,
  async handle(args, env) {
    return { description: access(env).expand(args.target) };
  },
});

export const find = defineAction({
  name: 'find',
  description: 'Search the whole page, collapsed parts included: lists the matching elements with refs. Does not touch the page.',
  schema: z.object({ text: z.string().min(1).describe('Words to look for (case-insensitive)') }),
  pageStateOnly: true,
  async handle(args, env) {
    return { description: access(env).find(args.text) };
  },
});
