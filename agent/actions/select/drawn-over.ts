import { ActionError } from '../core/types';
import { selectCustom } from './custom';
import { selectedLabels, selectNative, type SelectControl } from './native';
import { quoteList } from './option-match';
import { shownBy, showsChoice, standInFor } from './stand-in';

/**
 * A native select with a drop-down of the page's own drawn over it (the select hidden): the choice is made in the
 * select and then checked where a person looks — the drop-down. One that did not follow (old plugins redraw only on
 * their own events) is operated as a person would: opened, and the option clicked in it.
 */
export async function selectWhereShown(control: SelectControl, wanted: readonly string[], signal: AbortSignal): Promise<string> {
  const standIn = await standInFor(control.page, control.locator);
  const selected = await selectNative(control, wanted, signal);
  if (!standIn) return selected;
  const chosen = await selectedLabels(control.locator);
  let shown = await shownBy(standIn);
  if (chosen.every(label => showsChoice(shown, label))) return `${selected} — the drop-down the page shows for it says ${JSON.stringify(shown)}`;
  const where = `the drop-down the page shows for ${control.label}`;
  try {
    await selectCustom(control.page, standIn.locator, chosen.length === 1 ? chosen[0]! : chosen, where, signal);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new ActionError(
      `${selected}, but the select is hidden and ${where} still says ${JSON.stringify(shown)}; choosing there failed (${why}) — open that drop-down and click the option`,
    );
  }
  shown = await shownBy(standIn);
  if (!chosen.every(label => showsChoice(shown, label)))
    throw new ActionError(`Chose ${quoteList(chosen)} in ${where}, but it says ${JSON.stringify(shown)} — open it and look at its options`);
  return `Selected ${quoteList(chosen)} in ${control.label} through ${where} (the select itself is hidden and the drop-down did not follow it): it says ${JSON.stringify(shown)}`;
}
