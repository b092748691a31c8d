import { z } from 'zod';
import { ELEMENT_TIMEOUT_MS } from './limits';
import { enterValue } from './field-entry';
import { resolveTarget, TargetArg } from './target';
import { defineAction } from './types';

export const type = defineAction({
  name: 'type',
  description: 'Replace the value of a field and check it took; dates, times and numbers as people write them; sliders too.',
  schema: z.object({
    target: TargetArg,
    text: z.string().describe('Credentials as {{secret:NAME}}'),
    submit: z.boolean().optional().describe('Press Enter after'),
    slowly: z.boolean().optional().describe('Key by key (autocomplete)'),
  }),
  async handle({ target, text, submit, slowly }, env) {
    const resolved = await resolveTarget(target, env);
    return { description: await enterValue(resolved, text, { submit, slowly }, env), element: resolved.element };
  },
});

export const press = defineAction({
  name: 'press',
  description: 'Press a key or chord on an element or the page.',
  schema: z.object({
    key: z.string().min(1).max(60).describe('e.g. "Enter", "Shift+Tab", "Control+A"'),
    target: TargetArg.optional().describe('Focused first (default: the page)'),
  }),
  async handle({ key, target }, env) {
    if (!target) {
      await env.page.keyboard.press(key);
      return { description: `Pressed ${key}` };
    }
    const resolved = await resolveTarget(target, env);
    await resolved.locator.press(key, { timeout: ELEMENT_TIMEOUT_MS });
    return { description: `Pressed ${key} on ${resolved.label}`, element: resolved.element };
  },
});
