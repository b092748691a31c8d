import { z } from 'zod';
import { ELEMENT_TIMEOUT_MS } from './limits';
import { resolveTarget, TargetArg } from './target';
import { defineAction } from './types';

export const click = defineAction({
  name: 'click',
  description: 'Click an element (link, button, tab…).',
  schema: z.object({
    target: TargetArg,
    double: z.boolean().optional().describe('Double-click'),
  }),
  async handle({ target, double }, env) {
    const resolved = await resolveTarget(target, env);
    if (double) await resolved.locator.dblclick({ timeout: ELEMENT_TIMEOUT_MS });
    else await resolved.locator.click({ timeout: ELEMENT_TIMEOUT_MS });
    return { description: `${double ? 'Double-clicked' : 'Clicked'} ${resolved.label}`, element: resolved.element };
  },
});

export const hover = defineAction({
  name: 'hover',
  description: 'Hover over an element (hover menus, tooltips).',
  schema: z.object({ target: TargetArg }),
  async handle({ target }, env) {
    const resolved = await resolveTarget(target, env);
    await resolved.locator.hover({ timeout: ELEMENT_TIMEOUT_MS });
    return { description: `Hovered over ${resolved.label}`, element: resolved.element };
  },
});
