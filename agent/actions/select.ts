import { z } from 'zod';
import { selectCustom } from './select-custom';
import { isNativeSelect, selectNative } from './select-native';
import { resolveTarget, TargetArg } from './target';
import { defineAction } from './types';

export const selectOption = defineAction({
  name: 'select_option',
  description: 'Choose an option in a native <select> or a custom combobox/listbox (opened for you; waits briefly for options that load late).',
  schema: z.object({
    target: TargetArg.describe('The dropdown (select, combobox or listbox)'),
    value: z.string().min(1).describe('The option: its visible text (preferred) or value'),
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
