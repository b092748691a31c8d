import { z } from 'zod';
import { ELEMENT_TIMEOUT_MS } from './core/limits';
import { enterValue } from './fields/field-entry';
import { markActedOn, settledOutcome, watchPageChanges, type ChangeWatch } from './settle/page-changes';
import { deliverInput } from './settle/settle';
import { resolveTarget, TargetArg } from './targets/target';
import { defineAction } from './core/types';

export const type = defineAction({
  name: 'type',
  productive: true,
  setsValue: true,
  description: "Replace a field's value (checked after); dates, times and numbers as people write them; sliders too.",
  verifies:
    "Within about a second: the field is editable (not read-only, disabled, hidden, covered by a dialog or made inert by a modal one, or a select/checkbox/file field; anything else says what it is and what to use). Dates, times, months, weeks, numbers and colors are converted to the input's format (an ambiguous 03/04 follows the field's hint or the page language). Afterwards the field holds the value (a field that formats it is reported with what it shows; one that takes each key and shows the text elsewhere, such as a console, is reported with what the field and the page show; one that clears or cuts it is a failure); a slider or spinner shows the value (a bare handle on a track: the number the text beside it shows, by its keys, or a place along the track such as 40%).",
  schema: z.object({
    target: TargetArg,
    text: z.string().describe('The value to enter'),
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
  historyWeight: 0.5,
  mayTurnPage: true,
  maySubmit: true,
  productive: true,
  description: 'Press a key or chord on an element or the page.',
  verifies: "The key name is one Playwright knows; a change only the element's class or attributes or a canvas shows is said.",
  schema: z.object({
    key: z.string().min(1).max(60).describe('e.g. "Enter", "Shift+Tab"'),
    target: TargetArg.optional().describe('Focused first (default: the page)'),
  }),
  async handle({ key, target }, env) {
    if (!target) {
      const watch = await watchPageChanges(env.page, { focused: true });
      await pressOrStop(watch, () => env.page.keyboard.press(key));
      return { description: `Pressed ${key}`, afterSettle: () => settledOutcome(watch, '') };
    }
    const resolved = await resolveTarget(target, env);
    await markActedOn(resolved.locator);
    const watch = await watchPageChanges(env.page);
    await pressOrStop(watch, () => deliverInput(env.page, () => resolved.locator.press(key, { timeout: ELEMENT_TIMEOUT_MS })));
    return { description: `Pressed ${key} on ${resolved.label}`, element: resolved.element, afterSettle: () => settledOutcome(watch, '') };
  },
});

async function pressOrStop(watch: ChangeWatch, press: () => Promise<unknown>): Promise<void> {
  try {
    await press();
  } catch (error) {
    await watch.stop();
    throw error;
  }
}
