import type { Locator, Page } from '@playwright/test';
import { chipNames, eachOf, missingOption, openPopup, popupScope, readControl, waitForOption, type ControlInfo } from './custom-options';
import { ELEMENT_TIMEOUT_MS, HANDLERS_MS } from '../core/limits';
import { quoteList } from './option-match';
import { selectSeveral } from './several';
import { ActionError } from '../core/types';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * An ARIA combobox or listbox: open it (or type into it, when it is a text field), wait for the options
 * to appear, click the wanted one and check it was taken. Suggestion lists without ARIA roles are matched
 * by their visible text. Several options, or a tag picker that already holds chips, are set as a whole
 * (select-several).
 */
export async function selectCustom(
  page: Page,
  target: Locator,
  value: string | readonly string[],
  targetLabel: string,
  signal: AbortSignal,
): Promise<string> {
  const wanted = typeof value === 'string' ? [value] : value;
  const { control, label } = await listOfOption(target, targetLabel);
  const info = await readControl(control);
  // What a control that holds several choices ends with is the whole selection, one option or many.
  const holdsSeveral = info.multiselectable || (info.editable && (typeof value !== 'string' || (await chipNames(control)).length > 0));
  if (wanted.length > 1 || holdsSeveral) return selectSeveral(page, control, info, wanted, label, signal);
  const [one] = wanted as [string];
  // Options without a role are known by their text appearing when the control opens: so it must not show before.
  const hiddenBefore = !info.editable && (await visibleText(page, one)) === 0;
  if (info.editable) await control.fill(one, { timeout: ELEMENT_TIMEOUT_MS });
  else if (info.role !== 'listbox' && info.expanded !== 'true') await openPopup(control, label);
  const scope = popupScope(page, control, info);
  const option = await waitForOption(scope, page, one, info.editable || hiddenBefore, signal);
  if (!option) throw await missingOption(scope, one, label);
  const chosen = ((await option.evaluate(el => el.textContent, undefined, { timeout: 2_000 })) ?? one).trim();
  await option.click({ timeout: ELEMENT_TIMEOUT_MS });
  await sleep(HANDLERS_MS);
  const shown = await shownChoice(control, info, option, chosen);
  if (shown.choice === undefined) {
    throw new ActionError(
      `Clicked option ${JSON.stringify(chosen)} in ${label}, but it does not show as chosen (${shown.instead}) — open it again and look at its options, or try the keyboard (ArrowDown, Enter)`,
    );
  }
  return `Selected ${JSON.stringify(chosen)} in ${label}${shown.choice === chosen ? '' : ` — it now shows ${JSON.stringify(shown.choice)}`}`;
}

function visibleText(page: Page, text: string): Promise<number> {
  return page
    .getByText(text, { exact: true })
    .filter({ visible: true })
    .count()
    .catch(() => 1);
}

/** An option named as the target is chosen in its own list box. */
async function listOfOption(target: Locator, label: string): Promise<{ control: Locator; label: string }> {
  const isOption = await target.evaluate(el => el.getAttribute('role') === 'option', undefined, { timeout: ELEMENT_TIMEOUT_MS });
  if (!isOption) return { control: target, label };
  const list = target.locator('xpath=ancestor::*[@role="listbox"][1]');
  if ((await list.count()) === 0) throw new ActionError(`${label} is an option outside any list box — click it instead`);
  return { control: list, label: `the list of ${label}` };
}

/**
 * The choice as the page shows it now: the option marked selected, or the control showing its text. A list box
 * shows every option's text, so only its marks count there.
 */
async function shownChoice(control: Locator, info: ControlInfo, option: Locator, chosen: string): Promise<{ choice?: string; instead: string }> {
  const marked = await option
    .evaluate(el => el.getAttribute('aria-selected') === 'true' || el.getAttribute('aria-checked') === 'true', undefined, { timeout: 1_000 })
    .catch(() => false);
  if (marked) return { choice: chosen, instead: '' };
  if (info.role === 'listbox') {
    const selected = await eachOf(control.locator('[role=option][aria-selected=true], [role=option][aria-checked=true]'), el =>
      (el as HTMLElement).innerText.trim(),
    );
    return { instead: selected.length ? `${quoteList(selected)} ${selected.length === 1 ? 'is' : 'are'} selected` : 'nothing is marked selected' };
  }
  const shown = (await readControl(control).catch(() => undefined))?.shown ?? '';
  const normal = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  if (shown && normal(shown).includes(normal(chosen))) return { choice: shown.replace(/\s+/g, ' ').trim(), instead: '' };
  // A tag picker clears its text and shows the choice as a chip.
  if (info.editable && (await chipNames(control).catch(() => [])).some(name => normal(name) === normal(chosen)))
    return { choice: chosen, instead: '' };
  return { instead: `the control shows ${JSON.stringify(shown.slice(0, 80))}` };
}
