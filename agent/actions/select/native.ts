import type { Locator, Page } from '@playwright/test';
import type { SemanticLocator } from '../../task/locator-schema';
import { ELEMENT_TIMEOUT_MS, HANDLERS_MS } from '../core/limits';
import { matchOption, missingOptionText, OptionsSettled, quoteList, type OptionInfo } from './option-match';
import { controlNow } from '../targets/relocate';
import { ActionError } from '../core/types';
import { setTimeout as sleep } from 'node:timers/promises';

interface SelectState {
  disabled: boolean;
  multiple: boolean;
  options: Array<OptionInfo & { selected: boolean }>;
}

const POLL_MS = 150;

/**
 * A native <select>. A dependent select (country → state) is disabled or empty until its options arrive,
 * so the wanted options are awaited, bounded, before choosing them; a multiple select ends with exactly the
 * wanted set, and what the select shows afterwards is checked.
 */
/** A select as the handler found it: where it is, how a person names it (to find it again once re-rendered). */
export interface SelectControl {
  page: Page;
  locator: Locator;
  element: SemanticLocator;
  label: string;
}

export async function selectNative(control: SelectControl, wanted: readonly string[], signal: AbortSignal): Promise<string> {
  const { locator, label } = control;
  const settled = new OptionsSettled();
  for (;;) {
    const state = await readSelect(locator);
    const matches = wanted.map(w => matchOption(state.options, w));
    if (!state.disabled && matches.every(m => m !== undefined)) {
      if (wanted.length > 1 && !state.multiple)
        throw new ActionError(`${label} takes one option, not ${wanted.length} — choose one of ${quoteList(wanted)}`);
      const chosen = matches as OptionInfo[];
      await locator.selectOption(
        chosen.map(m => ({ index: m.index })),
        { timeout: ELEMENT_TIMEOUT_MS },
      );
      return verifySelection(control, state, chosen);
    }
    const loaded = state.disabled ? [] : state.options.filter(o => o.value !== '').map(o => o.label);
    if (settled.isOver(loaded) || signal.aborted) {
      const missing = wanted[matches.findIndex(m => m === undefined)];
      throw new ActionError(
        state.disabled
          ? `${label} is disabled (options: ${quoteList(state.options.map(o => o.label))}) — choose the field it depends on first`
          : missingOptionText(
              missing ?? wanted[0]!,
              state.options.map(o => o.label),
              label,
            ),
      );
    }
    await sleep(POLL_MS);
  }
}

async function verifySelection(control: SelectControl, before: SelectState, chosen: readonly OptionInfo[]): Promise<string> {
  const { label } = control;
  await sleep(HANDLERS_MS);
  const now = await controlNow(control.page, control.locator, control.element);
  if (!now)
    throw new ActionError(`Chose ${quoteList(chosen.map(o => o.label))} in ${label}, but the select is gone from the page afterwards`, false, {
      model: 'take a fresh look at the page state',
    });
  const after = await readSelect(now);
  const nowSelected = after.options.filter(o => o.selected);
  const wantedIndexes = new Set(chosen.map(o => o.index));
  const exact = nowSelected.length === wantedIndexes.size && nowSelected.every(o => wantedIndexes.has(o.index));
  const shown = quoteList(nowSelected.map(o => o.label)) || 'nothing';
  if (!exact)
    throw new ActionError(
      `Chose ${quoteList(chosen.map(o => o.label))} in ${label}, but it now shows ${shown} selected — the page changed the choice; look for a message near it`,
    );
  if (!before.multiple) {
    const [option] = chosen as [OptionInfo];
    return `Selected ${JSON.stringify(option.label.trim())}${option.value !== option.label ? ` (value ${JSON.stringify(option.value)})` : ''} in ${label}`;
  }
  const was = before.options.filter(o => o.selected).map(o => o.label);
  return `Selected exactly ${shown} in ${label} (before: ${quoteList(was) || 'nothing'})`;
}

export async function isNativeSelect(locator: Locator): Promise<boolean> {
  return locator.evaluate(el => (el instanceof HTMLLabelElement && el.control ? el.control : el) instanceof HTMLSelectElement, undefined, {
    timeout: ELEMENT_TIMEOUT_MS,
  });
}

/** The labels of the options the select holds now. */
export async function selectedLabels(locator: Locator): Promise<string[]> {
  return (await readSelect(locator)).options.filter(option => option.selected).map(option => option.label.trim());
}

function readSelect(locator: Locator): Promise<SelectState> {
  return locator.evaluate(
    el => {
      const select = (el instanceof HTMLLabelElement && el.control ? el.control : el) as HTMLSelectElement;
      return {
        disabled: select.disabled,
        multiple: select.multiple,
        options: [...select.options].map((o, index) => ({ index, value: o.value, label: o.label || o.textContent || '', selected: o.selected })),
      };
    },
    undefined,
    { timeout: ELEMENT_TIMEOUT_MS },
  );
}
