import type { Locator } from '@playwright/test';
import { z } from 'zod';
import { ELEMENT_TIMEOUT_MS } from './limits';
import { resolveTarget, TargetArg } from './target';
import { defineAction, type ActionEnv, type HandlerOutput } from './types';

const ToggleArgs = z.object({ target: TargetArg.describe('Checkbox, radio or switch') });

export const check = defineAction({
  name: 'check',
  description: 'Tick a checkbox, switch or radio (no change if already on).',
  schema: ToggleArgs,
  handle: ({ target }, env) => setChecked(target, true, env),
});

export const uncheck = defineAction({
  name: 'uncheck',
  description: 'Clear a checkbox or switch (no change if already off).',
  schema: ToggleArgs,
  handle: ({ target }, env) => setChecked(target, false, env),
});

async function setChecked(target: TargetArg, wanted: boolean, env: ActionEnv): Promise<HandlerOutput> {
  const resolved = await resolveTarget(target, env);
  const locator = resolved.locator.first();
  const before = await isChecked(locator);
  if (before !== wanted) await locator.setChecked(wanted, { timeout: ELEMENT_TIMEOUT_MS });
  const verb = wanted ? 'Checked' : 'Unchecked';
  return { description: before === wanted ? `${resolved.label} was already ${wanted ? 'checked' : 'unchecked'}` : `${verb} ${resolved.label}`, element: resolved.element };
}

async function isChecked(locator: Locator): Promise<boolean> {
  return locator.isChecked({ timeout: ELEMENT_TIMEOUT_MS });
}
