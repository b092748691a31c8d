import { z } from 'zod';
import { readControlState } from './fields/control-state';
import { ELEMENT_TIMEOUT_MS, HANDLERS_MS } from './core/limits';
import { ensurePointerReady } from './targets/preflight';
import { controlNow } from './targets/relocate';
import { resolveTarget, TargetArg } from './targets/target';
import { ActionError, defineAction, type ActionEnv, type HandlerOutput } from './core/types';
import { setTimeout as sleep } from 'node:timers/promises';

const ToggleArgs = z.object({ target: TargetArg });

export const check = defineAction({
  name: 'check',
  productive: true,
  description: 'Tick a checkbox, switch or radio (no change if already on).',
  verifies: 'It is a checkbox, radio button or switch, enabled and not covered; afterwards it is on (a page that springs it back is a failure).',
  schema: ToggleArgs,
  handle: ({ target }, env) => setChecked(target, true, env),
});

export const uncheck = defineAction({
  name: 'uncheck',
  productive: true,
  description: 'Clear a checkbox or switch (no change if already off).',
  verifies: 'It is a checkbox or switch (a radio button is cleared by checking another), enabled and not covered; afterwards it is off.',
  schema: ToggleArgs,
  handle: ({ target }, env) => setChecked(target, false, env),
});

async function setChecked(target: TargetArg, wanted: boolean, env: ActionEnv): Promise<HandlerOutput> {
  const resolved = await resolveTarget(target, env);
  const locator = resolved.locator.first();
  const state = wanted ? 'checked' : 'unchecked';
  const before = await readControlState(locator);
  if (before.checked === undefined)
    throw new ActionError(
      `${resolved.label} is not a checkbox, radio button or switch (it is ${before.role || before.tag}) — click it, or target the box itself`,
    );
  if (before.checked === wanted) return { description: `${resolved.label} was already ${state}`, element: resolved.element };
  if (!wanted && before.inputType === 'radio')
    throw new ActionError(`${resolved.label} is a radio button: it is cleared by checking another option of its group`);
  if (before.disabled)
    throw new ActionError(`Cannot ${wanted ? 'check' : 'uncheck'} ${resolved.label}: it is disabled — fill in what it depends on first`);
  await ensurePointerReady(locator, resolved.label, 'click');
  // A click, checked below by us: Playwright's setChecked re-reads the element it clicked, and a page that redraws
  // the box on change leaves that element detached, so setChecked waits out its timeout on a change that happened.
  await locator.click({ timeout: ELEMENT_TIMEOUT_MS });
  await sleep(HANDLERS_MS);
  const now = await controlNow(env.page, locator, resolved.element);
  if (!now)
    throw new ActionError(`Clicked ${resolved.label} but it is gone from the page afterwards`, false, {
      model: 'take a fresh look at the page state',
    });
  const after = await readControlState(now);
  if (after.checked !== wanted)
    throw new ActionError(
      `Clicked ${resolved.label} but it is still ${after.checked ? 'checked' : 'unchecked'} — the page refused the change; look for a message or a condition near it`,
    );
  return { description: `${wanted ? 'Checked' : 'Unchecked'} ${resolved.label}`, element: resolved.element };
}
