import type { Locator, Page } from '@playwright/test';
import {
  chipBoxText,
  chipNames,
  disposeChips,
  eachOf,
  innerTexts,
  listboxOf,
  missingOption,
  openPopup,
  POLL_MS,
  popupScope,
  readChips,
  readControl,
  waitForOption,
  type ControlInfo,
} from './custom-options';
import { ELEMENT_TIMEOUT_MS, HANDLERS_MS } from '../core/limits';
import { matchOption, missingOptionText, OptionsSettled, quoteList } from './option-match';
import { ActionError } from '../core/types';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A control that holds several choices ends with exactly the wanted ones: a text combobox collecting chips (a tag
 * or people picker) gets the missing ones typed and picked and the others removed; a multi-select list box gets
 * its options toggled.
 */
export async function selectSeveral(
  page: Page,
  control: Locator,
  info: ControlInfo,
  wanted: readonly string[],
  label: string,
  signal: AbortSignal,
): Promise<string> {
  if (info.editable) return selectTags(page, control, wanted, label, signal);
  if (info.role !== 'listbox' && info.expanded !== 'true') await openPopup(control, label);
  // Some popups are named by the control only once open.
  const listbox = listboxOf(page, control, info.role === 'listbox' ? info : await readControl(control));
  const multiselectable =
    listbox &&
    (info.multiselectable ||
      (await listbox.evaluate(el => el.getAttribute('aria-multiselectable') === 'true', undefined, { timeout: ELEMENT_TIMEOUT_MS })));
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
    await sleep(POLL_MS);
  }
}

async function selectedIndexes(options: Locator): Promise<Set<number>> {
  const states = await eachOf(options, el => el.getAttribute('aria-selected') === 'true' || el.getAttribute('aria-checked') === 'true');
  return new Set(states.flatMap((on, index) => (on ? [index] : [])));
}

/** A bound on removals, so a picker that grows a chip back cannot keep us here. */
const MAX_CHIPS = 50;

/** Case and spacing aside, a chip names the option it was made from. */
const sameChoice = (a: string, b: string) => a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();

async function selectTags(page: Page, control: Locator, wanted: readonly string[], label: string, signal: AbortSignal): Promise<string> {
  const before = await chipNames(control);
  // Missing ones first: a name the picker does not offer fails before anything is removed.
  const names: string[] = [];
  for (const want of wanted) {
    const chips = await chipNames(control);
    const held = chips.find(name => sameChoice(name, want));
    if (held) {
      names.push(held);
      continue;
    }
    const picked = await pickTag(page, control, want, label, signal).catch(async (error: unknown) => {
      if (!(error instanceof ActionError) || names.length === 0) throw error;
      throw new ActionError(`${error.message} (it now holds ${quoteList(await chipNames(control)) || 'nothing'})`, error.infra, error.advice);
    });
    names.push(picked);
    const now = await chipNames(control);
    // Only a control that turns each pick into a chip may have chips removed: anything else is left alone.
    if (now.length > 0 && !now.some(name => sameChoice(name, picked))) {
      if (wanted.length === 1) return singleChoiceShown(control, picked, label);
      throw new ActionError(
        `${label} did not keep ${JSON.stringify(picked)} beside its other choices (it shows ${quoteList(now)}) — it may take one option only`,
      );
    }
  }
  if (before.length === 0 && (await chipNames(control)).length === 0) return checkedByText(control, names, label);
  await removeChipsExcept(control, names);
  const after = await chipNames(control);
  const missing = names.filter(name => !after.some(chip => sameChoice(chip, name)));
  const extra = after.filter(chip => !names.some(name => sameChoice(chip, name)));
  if (missing.length || extra.length) {
    const why = [missing.length ? `${quoteList(missing)} did not stay` : '', extra.length ? `${quoteList(extra)} could not be removed` : '']
      .filter(Boolean)
      .join('; ');
    throw new ActionError(`Could not select exactly ${quoteList(names)} in ${label}: it now shows ${quoteList(after) || 'nothing'} (${why})`);
  }
  return `Selected exactly ${quoteList(after)} in ${label} (before: ${quoteList(before) || 'nothing'})`;
}

/** The buttons beside it were not chips after all: a single-choice field shows the pick as its value. */
async function singleChoiceShown(control: Locator, picked: string, label: string): Promise<string> {
  const shown = (await readControl(control)).shown;
  if (!sameChoice(shown, picked))
    throw new ActionError(
      `Clicked option ${JSON.stringify(picked)} in ${label}, but it shows ${JSON.stringify(shown.slice(0, 80))} — open it again and look at its options`,
    );
  return `Selected ${JSON.stringify(picked)} in ${label}`;
}

/** Chips without remove buttons cannot be counted, only read: each pick must show in the picker's box. */
async function checkedByText(control: Locator, names: readonly string[], label: string): Promise<string> {
  const shown = await chipBoxText(control);
  const missing = names.filter(name => !shown.toLowerCase().includes(name.toLowerCase()));
  if (missing.length)
    throw new ActionError(
      `Picked ${quoteList(names)} in ${label}, but it does not show ${quoteList(missing)} afterwards (it shows ${JSON.stringify(shown.slice(0, 120))}) — it may take one option only`,
    );
  return `Picked ${quoteList(names)} in ${label} — it shows ${JSON.stringify(shown.slice(0, 120))} (its chips have no remove buttons, so earlier choices were left as they were)`;
}

/** One at a time, read afresh each time: pickers re-render their chips when one goes. */
async function removeChipsExcept(control: Locator, keep: readonly string[]): Promise<void> {
  for (let round = 0; round < MAX_CHIPS; round++) {
    const chips = await readChips(control);
    try {
      const extra = chips.find(chip => !keep.some(name => sameChoice(name, chip.name)));
      if (!extra) return;
      await extra.remove.click({ timeout: ELEMENT_TIMEOUT_MS });
    } finally {
      await disposeChips(chips);
    }
    await sleep(HANDLERS_MS);
  }
}

/** Types the name, waits for its option and picks it; returns the option's text. */
async function pickTag(page: Page, control: Locator, want: string, label: string, signal: AbortSignal): Promise<string> {
  await control.fill(want, { timeout: ELEMENT_TIMEOUT_MS });
  const scope = popupScope(page, control, await readControl(control));
  const option = await waitForOption(scope, page, want, true, signal);
  if (!option) {
    // The whole menu, not the one filtered by the missing name, is what the message lists.
    await control.fill('', { timeout: ELEMENT_TIMEOUT_MS });
    throw await missingOption(scope, want, label);
  }
  const text = ((await option.evaluate(el => el.textContent, undefined, { timeout: 2_000 })) ?? want).trim();
  await option.click({ timeout: ELEMENT_TIMEOUT_MS });
  await sleep(HANDLERS_MS);
  return text;
}
