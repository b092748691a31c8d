import type { Locator, Page } from '@playwright/test';
import { ELEMENT_TIMEOUT_MS, HANDLERS_MS } from './limits';
import { matchOption, missingOptionText, OptionsSettled, quoteList } from './option-match';
import { ensurePointerReady } from './preflight';
import { ActionError } from './types';

interface ControlInfo {
  role: string | null;
  expanded: string | null;
  popupId: string | null;
  editable: boolean;
  multiselectable: boolean;
  /** What the control shows as its value: an input's value, a button's text. */
  shown: string;
}

const POLL_MS = 150;

/**
 * An ARIA combobox or listbox: open it (or type into it, when it is a text field), wait for the options
 * to appear, click the wanted one and check it was taken. Suggestion lists without ARIA roles are matched
 * by their visible text. A multi-select listbox gets its options toggled until exactly the wanted ones are on.
 */
export async function selectCustom(page: Page, target: Locator, wanted: readonly string[], targetLabel: string, signal: AbortSignal): Promise<string> {
  const { control, label } = await listOfOption(target, targetLabel);
  const info = await readControl(control);
  if (wanted.length > 1) return selectSeveral(page, control, info, wanted, label, signal);
  const [one] = wanted as [string];
  if (info.editable) await control.fill(one, { timeout: ELEMENT_TIMEOUT_MS });
  else if (info.role !== 'listbox' && info.expanded !== 'true') await openPopup(control, label);
  const scope = popupScope(page, control, info);
  const option = await waitForOption(scope, page, one, info.editable, signal);
  if (!option) throw new ActionError(await missingOption(scope, one, label));
  const chosen = ((await option.evaluate(el => el.textContent, undefined, { timeout: 2_000 })) ?? one).trim();
  await option.click({ timeout: ELEMENT_TIMEOUT_MS });
  await new Promise(resolve => setTimeout(resolve, HANDLERS_MS));
  const shown = await shownChoice(control, info, option, chosen);
  if (shown.choice === undefined) {
    throw new ActionError(`Clicked option ${JSON.stringify(chosen)} in ${label}, but it does not show as chosen (${shown.instead}) — open it again and look at its options, or try the keyboard (ArrowDown, Enter)`);
  }
  return `Selected ${JSON.stringify(chosen)} in ${label}${shown.choice === chosen ? '' : ` — it now shows ${JSON.stringify(shown.choice)}`}`;
}

/** An option named as the target is chosen in its own list box. */
async function listOfOption(target: Locator, label: string): Promise<{ control: Locator; label: string }> {
  const isOption = await target.evaluate(el => el.getAttribute('role') === 'option', undefined, { timeout: ELEMENT_TIMEOUT_MS });
  if (!isOption) return { control: target, label };
  const list = target.locator('xpath=ancestor::*[@role="listbox"][1]');
  if ((await list.count()) === 0) throw new ActionError(`${label} is an option outside any list box — click it instead`);
  return { control: list, label: `the list of ${label}` };
}

async function openPopup(control: Locator, label: string): Promise<void> {
  await ensurePointerReady(control, label, 'click');
  await control.click({ timeout: ELEMENT_TIMEOUT_MS });
}

function popupScope(page: Page, control: Locator, info: ControlInfo): Page | Locator {
  return listboxOf(page, control, info) ?? page;
}

function listboxOf(page: Page, control: Locator, info: ControlInfo): Locator | undefined {
  if (info.popupId) return page.locator(`[id="${info.popupId.replace(/["\\]/g, '\\$&')}"]`);
  return info.role === 'listbox' ? control : undefined;
}

/**
 * The choice as the page shows it now: the option marked selected, or the control showing its text. A list box
 * shows every option's text, so only its marks count there.
 */
async function shownChoice(control: Locator, info: ControlInfo, option: Locator, chosen: string): Promise<{ choice?: string; instead: string }> {
  const marked = await option.evaluate(el => el.getAttribute('aria-selected') === 'true' || el.getAttribute('aria-checked') === 'true', undefined, { timeout: 1_000 }).catch(() => false);
  if (marked) return { choice: chosen, instead: '' };
  if (info.role === 'listbox') {
    const selected = await eachOf(control.locator('[role=option][aria-selected=true], [role=option][aria-checked=true]'), el => (el as HTMLElement).innerText.trim());
    return { instead: selected.length ? `${quoteList(selected)} ${selected.length === 1 ? 'is' : 'are'} selected` : 'nothing is marked selected' };
  }
  const shown = (await readControl(control).catch(() => undefined))?.shown ?? '';
  const normal = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  if (shown && normal(shown).includes(normal(chosen))) return { choice: shown.replace(/\s+/g, ' ').trim(), instead: '' };
  return { instead: `the control shows ${JSON.stringify(shown.slice(0, 80))}` };
}

async function selectSeveral(page: Page, control: Locator, info: ControlInfo, wanted: readonly string[], label: string, signal: AbortSignal): Promise<string> {
  const listbox = listboxOf(page, control, info);
  if (info.role !== 'listbox' && info.expanded !== 'true') await openPopup(control, label);
  const multiselectable = listbox && (info.multiselectable || (await listbox.evaluate(el => el.getAttribute('aria-multiselectable') === 'true', undefined, { timeout: ELEMENT_TIMEOUT_MS })));
  if (!listbox || !multiselectable) throw new ActionError(`${label} takes one option, not ${wanted.length} — choose one of ${quoteList(wanted)}`);
  const options = listbox.getByRole('option');
  const labels = await waitForOptions(options, signal);
  const infos = labels.map((text, index) => ({ index, value: text, label: text }));
  const wantedIndexes = new Set<number>();
  for (const want of wanted) {
    const match = matchOption(infos, want);
    if (!match) throw new ActionError(missingOptionText(want, labels, label));
    wantedIndexes.add(match.index);
  }
  const before = await selectedIndexes(options);
  // Plain clicks toggle in most multi-select listboxes; desktop-style ones need Control held to keep the others.
  for (const modifiers of [[], ['ControlOrMeta']] as const) {
    for (let index = 0; index < labels.length; index++) {
      const selected = (await selectedIndexes(options)).has(index);
      if (selected !== wantedIndexes.has(index)) await options.nth(index).click({ modifiers: [...modifiers], timeout: ELEMENT_TIMEOUT_MS });
    }
    const now = await selectedIndexes(options);
    if (now.size === wantedIndexes.size && [...now].every(i => wantedIndexes.has(i))) {
      const names = [...now].sort((a, b) => a - b).map(i => labels[i]!);
      return `Selected exactly ${quoteList(names)} in ${label} (before: ${quoteList([...before].map(i => labels[i]!)) || 'nothing'})`;
    }
  }
  const shown = [...(await selectedIndexes(options))].map(i => labels[i]!);
  throw new ActionError(`Could not select exactly ${quoteList(wanted)} in ${label}: it now has ${quoteList(shown) || 'nothing'} selected`);
}

async function waitForOptions(options: Locator, signal: AbortSignal): Promise<string[]> {
  const settled = new OptionsSettled();
  for (;;) {
    const labels = await innerTexts(options);
    if (labels.length > 0 || settled.isOver(labels) || signal.aborted) return labels;
    await new Promise(resolve => setTimeout(resolve, POLL_MS));
  }
}

async function selectedIndexes(options: Locator): Promise<Set<number>> {
  const states = await eachOf(options, el => el.getAttribute('aria-selected') === 'true' || el.getAttribute('aria-checked') === 'true');
  return new Set(states.flatMap((on, index) => (on ? [index] : [])));
}

async function waitForOption(scope: Page | Locator, page: Page, wanted: string, typed: boolean, signal: AbortSignal): Promise<Locator | undefined> {
  const candidates = [
    scope.getByRole('option', { name: wanted, exact: true }),
    scope.getByRole('option', { name: wanted }),
    // Suggestions that are plain divs: only after typing, where the text cannot be the field itself.
    ...(typed ? [page.getByText(wanted, { exact: true })] : []),
  ].map(locator => locator.filter({ visible: true }));
  const settled = new OptionsSettled();
  for (;;) {
    for (const candidate of candidates) if ((await candidate.count()) === 1) return candidate;
    const shown = await innerTexts(scope.getByRole('option').filter({ visible: true }));
    if (settled.isOver(shown) || signal.aborted) return undefined;
    await new Promise(resolve => setTimeout(resolve, POLL_MS));
  }
}

async function missingOption(scope: Page | Locator, wanted: string, label: string): Promise<string> {
  const visible = await innerTexts(scope.getByRole('option').filter({ visible: true }));
  if (!visible.length) return `No options appeared for ${label} — look at the page state for how this field opens, or type into it`;
  return missingOptionText(wanted, visible, label);
}

function innerTexts(locator: Locator): Promise<string[]> {
  return eachOf(locator, el => (el as HTMLElement).innerText).catch(() => [] as string[]);
}

/**
 * One element at a time: under a ref (aria-ref=e12 >> …) allInnerTexts() and evaluateAll() match nothing
 * while count() and nth() do (Playwright 1.65).
 */
async function eachOf<T>(locator: Locator, read: (el: Element) => T): Promise<T[]> {
  const count = await locator.count();
  const values: T[] = [];
  for (let i = 0; i < count; i++) values.push(await locator.nth(i).evaluate(read, undefined, { timeout: ELEMENT_TIMEOUT_MS }));
  return values;
}

function readControl(control: Locator): Promise<ControlInfo> {
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
        shown: editable && 'value' in el ? String((el as HTMLInputElement).value) : ((el as HTMLElement).innerText || '').replace((el.querySelector('[role=listbox]') as HTMLElement | null)?.innerText || '\u0000', ''),
      };
    },
    undefined,
    { timeout: ELEMENT_TIMEOUT_MS },
  );
}
