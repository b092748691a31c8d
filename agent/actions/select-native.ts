import type { Locator } from '@playwright/test';
import { ELEMENT_TIMEOUT_MS } from './limits';
import { listOptions, matchOption, OptionsSettled, type OptionInfo } from './option-match';
import { ActionError } from './types';

interface SelectState {
  disabled: boolean;
  options: OptionInfo[];
}

const POLL_MS = 150;

/**
 * A native <select>. A dependent select (country → state) is disabled or empty until its options arrive,
 * so the wanted option is awaited, bounded, before choosing it.
 */
export async function selectNative(locator: Locator, wanted: string, label: string, signal: AbortSignal): Promise<string> {
  const settled = new OptionsSettled();
  for (;;) {
    const state = await readSelect(locator);
    const match = matchOption(state.options, wanted);
    if (match && !state.disabled) {
      await locator.selectOption({ index: match.index }, { timeout: ELEMENT_TIMEOUT_MS });
      return `Selected ${JSON.stringify(match.label.trim())}${match.value !== match.label ? ` (value ${JSON.stringify(match.value)})` : ''} in ${label}`;
    }
    const loaded = state.disabled ? [] : state.options.filter(o => o.value !== '').map(o => o.label);
    if (settled.isOver(loaded) || signal.aborted) throw new ActionError(missingOption(state, wanted, label));
    await new Promise(resolve => setTimeout(resolve, POLL_MS));
  }
}

function missingOption(state: SelectState, wanted: string, label: string): string {
  const labels = state.options.map(o => o.label);
  if (state.disabled) return `${label} is disabled (options: ${listOptions(labels)}) — choose the field it depends on first`;
  return `No option ${JSON.stringify(wanted)} in ${label}; its options are ${listOptions(labels)}`;
}

export async function isNativeSelect(locator: Locator): Promise<boolean> {
  return locator.evaluate(el => (el instanceof HTMLLabelElement && el.control ? el.control : el) instanceof HTMLSelectElement, undefined, { timeout: ELEMENT_TIMEOUT_MS });
}

function readSelect(locator: Locator): Promise<SelectState> {
  return locator.evaluate(el => {
    const select = (el instanceof HTMLLabelElement && el.control ? el.control : el) as HTMLSelectElement;
    return {
      disabled: select.disabled,
      options: [...select.options].map((o, index) => ({ index, value: o.value, label: o.label || o.textContent || '' })),
    };
  }, undefined, { timeout: ELEMENT_TIMEOUT_MS });
}
