import type { ElementHandle, Locator, Page } from '@playwright/test';
import { ELEMENT_TIMEOUT_MS } from '../core/limits';
import { ActionError } from '../core/types';
import { missingOptionText, OptionsSettled } from './option-match';
import { ensurePointerReady } from '../targets/preflight';
import { setTimeout as sleep } from 'node:timers/promises';

/** What custom dropdowns, list boxes and tag pickers share: reading the control, finding its options. */

export const POLL_MS = 150;

export interface ControlInfo {
  role: string | null;
  expanded: string | null;
  popupId: string | null;
  editable: boolean;
  multiselectable: boolean;
  /** What the control shows as its value: an input's value, a button's text. */
  shown: string;
}

export async function openPopup(control: Locator, label: string): Promise<void> {
  await ensurePointerReady(control, label, 'click');
  await control.click({ timeout: ELEMENT_TIMEOUT_MS });
}

export function popupScope(page: Page, control: Locator, info: ControlInfo): Page | Locator {
  return listboxOf(page, control, info) ?? page;
}

export function listboxOf(page: Page, control: Locator, info: ControlInfo): Locator | undefined {
  if (info.popupId) return page.locator(`[id="${info.popupId.replace(/["\\]/g, '\\$&')}"]`);
  return info.role === 'listbox' ? control : undefined;
}

export async function waitForOption(
  scope: Page | Locator,
  page: Page,
  wanted: string,
  /** Plain elements showing the text count as options: after typing (the text cannot be the field itself), or when the text showed nowhere before the control opened. */
  byText: boolean,
  signal: AbortSignal,
): Promise<Locator | undefined> {
  const candidates = [
    scope.getByRole('option', { name: wanted, exact: true }),
    scope.getByRole('option', { name: wanted }),
    // Suggestion lists and drop-downs drawn from plain divs and list items.
    ...(byText ? [page.getByText(wanted, { exact: true })] : []),
  ].map(locator => locator.filter({ visible: true }));
  const settled = new OptionsSettled();
  for (;;) {
    for (const candidate of candidates) if ((await candidate.count()) === 1) return candidate;
    const shown = await innerTexts(scope.getByRole('option').filter({ visible: true }));
    if (settled.isOver(shown) || signal.aborted) return undefined;
    await sleep(POLL_MS);
  }
}

export async function missingOption(scope: Page | Locator, wanted: string, label: string): Promise<ActionError> {
  const visible = await innerTexts(scope.getByRole('option').filter({ visible: true }));
  if (!visible.length)
    return new ActionError(`No options appeared for ${label}`, false, {
      model: 'look at the page state for how this field opens, or type into it',
      recipe: 'the field may open another way (a click first), or take typed text',
    });
  return new ActionError(missingOptionText(wanted, visible, label));
}

export function innerTexts(locator: Locator): Promise<string[]> {
  return eachOf(locator, el => (el as HTMLElement).innerText).catch(() => [] as string[]);
}

/**
 * One element at a time: under a ref (aria-ref=e12 >> …) allInnerTexts() and evaluateAll() match nothing
 * while count() and nth() do (Playwright 1.65).
 */
export async function eachOf<T>(locator: Locator, read: (el: Element) => T): Promise<T[]> {
  const count = await locator.count();
  const values: T[] = [];
  for (let i = 0; i < count; i++) values.push(await locator.nth(i).evaluate(read, undefined, { timeout: ELEMENT_TIMEOUT_MS }));
  return values;
}

export function readControl(control: Locator): Promise<ControlInfo> {
  return control.evaluate(
    target => {
      const el = target instanceof HTMLLabelElement && target.control ? target.control : target;
      const editable = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || (el as HTMLElement).isContentEditable;
      return {
        role: el.getAttribute('role'),
        expanded: el.getAttribute('aria-expanded'),
        popupId: el.getAttribute('aria-controls') || el.getAttribute('aria-owns'),
        editable,
        multiselectable: el.getAttribute('aria-multiselectable') === 'true',
        // A control that holds its own list box shows the choice outside it.
        shown:
          editable && 'value' in el
            ? String((el as HTMLInputElement).value)
            : ((el as HTMLElement).innerText || '').replace((el.querySelector('[role=listbox]') as HTMLElement | null)?.innerText || '\u0000', ''),
      };
    },
    undefined,
    { timeout: ELEMENT_TIMEOUT_MS },
  );
}

/** A chip a tag picker shows for a choice, with the button that removes it. */
export interface Chip {
  name: string;
  remove: ElementHandle;
}

/**
 * The chips beside a text combobox (a tag or people picker): buttons named "Remove <name>" (or "Delete …",
 * "Deselect …") or a bare × inside a chip, in the box that holds the field. Dispose their buttons after use.
 */
export async function readChips(control: Locator): Promise<Chip[]> {
  const found = await control.evaluateHandle(chipsInPage, undefined, { timeout: ELEMENT_TIMEOUT_MS });
  try {
    const names = await found.evaluate(chips => chips.map(chip => chip.name));
    const chips: Chip[] = [];
    for (let i = 0; i < names.length; i++) {
      const remove = (await found.evaluateHandle((list, index) => list[index]!.button, i)).asElement();
      if (remove) chips.push({ name: names[i]!, remove });
    }
    return chips;
  } finally {
    await found.dispose();
  }
}

export async function chipNames(control: Locator): Promise<string[]> {
  const chips = await readChips(control);
  await disposeChips(chips);
  return chips.map(chip => chip.name);
}

export async function disposeChips(chips: readonly Chip[]): Promise<void> {
  await Promise.all(chips.map(chip => chip.remove.dispose()));
}

/** The text of the box holding a tag picker's field and chips (its menu left out). */
export function chipBoxText(control: Locator): Promise<string> {
  return control.evaluate(
    el => {
      const field = el instanceof HTMLLabelElement && el.control ? el.control : el;
      const box = (field.parentElement?.parentElement ?? field.parentElement ?? field) as HTMLElement;
      const menu = box.querySelector('[role=listbox]') as HTMLElement | null;
      return (box.innerText || '')
        .replace(menu?.innerText || '\u0000', '')
        .replace(/\s+/g, ' ')
        .trim();
    },
    undefined,
    { timeout: ELEMENT_TIMEOUT_MS },
  );
}

/** Runs in the page; self-contained because Playwright serialises it. */
function chipsInPage(target: Element): Array<{ name: string; button: Element }> {
  const field = target instanceof HTMLLabelElement && target.control ? target.control : target;
  const buttons = (box: Element) => [...box.querySelectorAll('button, [role=button]')].filter(b => b !== field && !b.closest('[role=listbox]'));
  // The box that holds the chips: the nearest ancestor, a few levels up at most, with buttons besides the field.
  let box = field.parentElement;
  for (let depth = 0; box && depth < 3 && buttons(box).length === 0; depth++) box = box.parentElement;
  if (!box) return [];
  const chips: Array<{ name: string; button: Element }> = [];
  for (const button of buttons(box)) {
    const holder = button.parentElement;
    // A button whose container holds the field acts on more than a chip ("Remove row").
    if (!holder || holder.contains(field)) continue;
    const spoken = (button.getAttribute('aria-label') || button.getAttribute('title') || '').trim();
    const named = /^(?:remove|delete|deselect|unselect)\s+["“']?(.+?)["”']?$/i.exec(spoken);
    const mark = (button.textContent ?? '').trim();
    if (named?.[1]) {
      if (!/^(all|selection|items?|tags?|filters?)$/i.test(named[1])) chips.push({ name: named[1], button });
    } else if (/^[×✕✖xX]$/.test(mark) && holder !== box) {
      const name = (holder.textContent ?? '').replace(mark, '').replace(/\s+/g, ' ').trim();
      if (name) chips.push({ name, button });
    }
  }
  return chips;
}
