import type { Locator } from '@playwright/test';
import { z } from 'zod';
import { ELEMENT_TIMEOUT_MS } from './limits';
import { fillSecret } from './secret-fill';
import { hasSecrets, withSecretsHidden } from './secret-text';
import { resolveTarget, TargetArg } from './target';
import { defineAction } from './types';

export const type = defineAction({
  name: 'type',
  description: 'Replace the text of a field.',
  schema: z.object({
    target: TargetArg,
    text: z.string().describe('Credentials as {{secret:NAME}}'),
    submit: z.boolean().optional().describe('Press Enter after'),
    slowly: z.boolean().optional().describe('Key by key (autocomplete)'),
  }),
  async handle({ target, text, submit, slowly }, env) {
    const resolved = await resolveTarget(target, env);
    const { locator } = resolved;
    await withSecretsHidden(text, env.policy, async value => {
      if (hasSecrets(text)) {
        await fillSecret(locator, value, text, { perKey: slowly });
      } else if (slowly) {
        await locator.fill('', { timeout: ELEMENT_TIMEOUT_MS });
        await locator.pressSequentially(value, { delay: 20, timeout: ELEMENT_TIMEOUT_MS + value.length * 50 });
      } else {
        await fillValue(locator, value);
      }
      if (submit) await locator.press('Enter', { timeout: ELEMENT_TIMEOUT_MS });
    });
    // `text` still holds the placeholders: this is the only form that reaches the log.
    return { description: `Typed ${JSON.stringify(text)} into ${resolved.label}${submit ? ' and pressed Enter' : ''}`, element: resolved.element };
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

/** Date inputs only take ISO dates; the model often writes the date the way the page displays it. */
async function fillValue(locator: Locator, value: string): Promise<void> {
  const inputType = await locator.evaluate(el => {
    const control = el instanceof HTMLLabelElement && el.control ? el.control : el;
    return control instanceof HTMLInputElement ? control.type : '';
  }, undefined, { timeout: ELEMENT_TIMEOUT_MS });
  const iso = inputType === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value) ? toIsoDate(value) : undefined;
  await locator.fill(iso ?? value, { timeout: ELEMENT_TIMEOUT_MS });
}

function toIsoDate(text: string): string | undefined {
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (us) return `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}`;
  const parsed = Date.parse(`${text} UTC`);
  return Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString().slice(0, 10);
}
