import { z } from 'zod';
import { selectCustom } from './select-custom';
import { isNativeSelect, selectNative } from './select-native';
import { resolveTarget, TargetArg } from './target';
import { defineAction } from './types';

export const selectOption = defineAction({
  name: 'select_option',
  description: 'Choose an option in a select, combobox or listbox (opened for you).',
  schema: z.object({
    target: TargetArg.describe('The dropdown'),
    value: z.string().min(1).describe('Option text (or value)'),
  }),
  async handle({ target, value }, env) {
    const resolved = await resolveTarget(target, env);
    const control = resolved.locator.first();
    const description = (await isNativeSelect(control))
      ? await selectNative(control, value, resolved.label, env.signal)
      : await selectCustom(env.page, control, value, resolved.label, env.signal);
    return { description, element: resolved.element };
  },
});
