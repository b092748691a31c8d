import { z } from 'zod';
import { selectCustom } from './select/custom';
import { selectWhereShown } from './select/drawn-over';
import { isNativeSelect } from './select/native';
import { resolveTarget, TargetArg } from './targets/target';
import { defineAction } from './core/types';

const OptionText = z.string().min(1);

export const selectOption = defineAction({
  name: 'select_option',
  chooses: true,
  productive: true,
  setsValue: true,
  description: 'Choose an option in a select, combobox, listbox or tag picker; a list sets a multi-select to exactly those.',
  verifies:
    "The options exist (waits briefly for dependent ones; a missing one is an error listing the closest options); several options only on a multi-select or tag picker. Afterwards exactly the wanted options are selected (a tag picker's other chips removed by their remove buttons), or the control shows the chosen one; a hidden select's drop-down drawn by the page shows it too (operated as a person would when it did not follow). A drop-down whose options have no role: the option is the text that appeared when it opened.",
  schema: z.object({
    target: TargetArg,
    value: z.union([OptionText, z.array(OptionText).min(1).max(50)]).describe('Option text or value; a list for several'),
  }),
  async handle({ target, value }, env) {
    const wanted = typeof value === 'string' ? [value] : value;
    const resolved = await resolveTarget(target, env);
    const control = resolved.locator.first();
    const description = (await isNativeSelect(control))
      ? await selectWhereShown({ page: env.page, locator: control, element: resolved.element, label: resolved.label }, wanted, env.signal)
      : await selectCustom(env.page, control, value, resolved.label, env.signal);
    return { description, element: resolved.element };
  },
});
