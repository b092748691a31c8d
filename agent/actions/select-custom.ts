import type { Locator, Page } from '@playwright/test';
import { ELEMENT_TIMEOUT_MS } from './limits';
import { listOptions, OptionsSettled } from './option-match';
import { ActionError } from './types';

interface ControlInfo {
  role: string | null;
  expanded: string | null;
  popupId: string | null;
  editable: boolean;
}

const POLL_MS = 150;

/**
 * An ARIA combobox or listbox: open it (or type into it, when it is a text field), wait for the options
 * to appear, click the wanted one. Suggestion lists without ARIA roles are matched by their visible text.
 */
export async function selectCustom(page: Page, control: Locator, wanted: string, label: string, signal: AbortSignal): Promise<string> {
  const info = await readControl(control);
  if (info.editable) await control.fill(wanted, { timeout: ELEMENT_TIMEOUT_MS });
  else if (info.role !== 'listbox' && info.role !== 'option' && info.expanded !== 'true') await control.click({ timeout: ELEMENT_TIMEOUT_MS });
  if (info.role === 'option') return `Selected ${label}`;
  const scope = info.popupId ? page.locator(`[id="${info.popupId.replace(/["\\]/g, '\\$&')}"]`) : info.role === 'listbox' ? control : page;
  const option = await waitForOption(scope, page, wanted, info.editable, signal);
  if (!option) throw new ActionError(await missingOption(scope, wanted, label));
  const chosen = ((await option.textContent({ timeout: 2_000 })) ?? wanted).trim();
  await option.click({ timeout: ELEMENT_TIMEOUT_MS });
  return `Selected ${JSON.stringify(chosen)} in ${label}`;
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
    const shown = await scope.getByRole('option').filter({ visible: true }).allInnerTexts().catch(() => [] as string[]);
    if (settled.isOver(shown) || signal.aborted) return undefined;
    await new Promise(resolve => setTimeout(resolve, POLL_MS));
  }
}

async function missingOption(scope: Page | Locator, wanted: string, label: string): Promise<string> {
  const visible = await scope.getByRole('option').filter({ visible: true }).allInnerTexts().catch(() => [] as string[]);
  if (!visible.length) return `No options appeared for ${label} — look at the page state for how this field opens, or type into it`;
  return `No option ${JSON.stringify(wanted)} (or several partial matches) in ${label}; the options are ${listOptions(visible)}`;
}

function readControl(control: Locator): Promise<ControlInfo> {
  return control.evaluate(
    target => {
      const el = target instanceof HTMLLabelElement && target.control ? target.control : target;
      return {
        role: el.getAttribute('role'),
        expanded: el.getAttribute('aria-expanded'),
        popupId: el.getAttribute('aria-controls') || el.getAttribute('aria-owns'),
        editable: el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || (el as HTMLElement).isContentEditable,
      };
    },
    undefined,
    { timeout: ELEMENT_TIMEOUT_MS },
  );
}
