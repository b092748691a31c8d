import { z } from 'zod';
import { resolveTarget, TargetArg } from './target';
import { defineAction } from './types';

export const click = defineAction({
  name: 'click',
  description: 'Click an element (link, button, tab, checkbox label…). Prefer the ref shown in the page state.',
  navigates: true,
  schema: z.object({ target: TargetArg }),
  async handle({ target }, env) {
    const resolved = await resolveTarget(target, env);
    await resolved.locator.click({ timeout: 10_000 });
    return { description: `Clicked ${resolved.label}`, element: resolved.element };
  },
});

export const type = defineAction({
  name: 'type',
  description: 'Replace the text of an input/textarea. Secrets are written as {{secret:NAME}} and filled in only at the browser.',
  schema: z.object({
    target: TargetArg,
    text: z.string().describe('Text to enter; use {{secret:NAME}} for credentials, never the value'),
    submit: z.boolean().optional().describe('Press Enter afterwards'),
  }),
  async handle({ target, text, submit }, env) {
    const resolved = await resolveTarget(target, env);
    await resolved.locator.fill(env.policy.resolveSecrets(text), { timeout: 10_000 });
    if (submit) await resolved.locator.press('Enter');
    return { description: `Typed ${JSON.stringify(text)} into ${resolved.label}${submit ? ' and pressed Enter' : ''}`, element: resolved.element };
  },
});
