import type { Page } from '@playwright/test';
import { z } from 'zod';
import { ELEMENT_TIMEOUT_MS } from './core/limits';
import { findControlForText } from './targets/obstacles';
import { ensurePointerReady } from './targets/preflight';
import { settledOutcome, watchPageChanges } from './settle/page-changes';
import { deliverInput } from './settle/settle';
import { CONTROL, REF_PATTERN, resolveTarget, TargetArg, type ResolvedTarget } from './targets/target';
import { ActionError, defineAction } from './core/types';

export const click = defineAction({
  name: 'click',
  chooses: true,
  mayTurnPage: true,
  maySubmit: true,
  description: 'Click an element on the page.',
  verifies:
    "Within about a second: the element is visible, enabled and not covered (else names the dialog covering it, or the menu, tab or section hiding it; a bare loading veil is waited out); a text that is plain text while a link or button has it is refused, naming that control. Once the page has settled, a click after which nothing visible changed (no content, value, state, focus, scroll, address, tab or dialog) says so; one that changed only what the page state's words may not show (the element's class or attributes, a canvas drawn on) says that.",
  schema: z.object({
    target: TargetArg,
    double: z.boolean().optional().describe('Double-click'),
  }),
  async handle({ target, double }, env) {
    const resolved = await resolveTarget(target, env);
    if (typeof target === 'string' && namesByText(target)) await refusePlainText(resolved, target);
    await ensurePointerReady(resolved.locator, resolved.label, 'click');
    const watch = await watchPageChanges(env.page);
    let after: string;
    try {
      after = await clickThrough(resolved, Boolean(double), env.page);
    } catch (error) {
      await watch.stop();
      throw error;
    }
    return {
      description: `${double ? 'Double-clicked' : 'Clicked'} ${resolved.label}${after}`,
      element: resolved.element,
      afterSettle: () => settledOutcome(watch, NOTHING_CHANGED),
    };
  },
});

export const NOTHING_CHANGED =
  ' — nothing visible changed on the page (no text, value, state, focus or address): it may need something else first, or it is not the control that does this';

/**
 * The click's own effect can end Playwright's wait with an error: a button that closes its tab, a link whose
 * new document replaces the frame the ref pointed into. The page moved or closed, so the click happened.
 */
async function clickThrough(resolved: ResolvedTarget, double: boolean, page: Page): Promise<string> {
  const before = page.url();
  try {
    if (double) await resolved.locator.dblclick({ timeout: ELEMENT_TIMEOUT_MS });
    else await deliverInput(page, () => resolved.locator.click({ timeout: ELEMENT_TIMEOUT_MS }));
    return '';
  } catch (error) {
    if (page.isClosed()) return ' — it closed this tab';
    const gone = /detached|Invalid frame in aria-ref|Execution context was destroyed/i.test(error instanceof Error ? error.message : String(error));
    if (gone && page.url() !== before) return ` — the page moved to ${page.url()}`;
    throw error;
  }
}

export const hover = defineAction({
  name: 'hover',
  historyWeight: 0.5,
  replay: 'optional',
  onlyReveals: true,
  description: 'Hover over an element (menus, tooltips).',
  verifies: 'Within about a second: the element is visible and not covered.',
  schema: z.object({ target: TargetArg }),
  async handle({ target }, env) {
    const resolved = await resolveTarget(target, env);
    await ensurePointerReady(resolved.locator, resolved.label, 'hover');
    await resolved.locator.hover({ timeout: ELEMENT_TIMEOUT_MS });
    return { description: `Hovered over ${resolved.label}`, element: resolved.element };
  },
});

/** The model pointed by visible text, not by a ref or a selector. */
function namesByText(target: string): boolean {
  const text = target.trim();
  return !REF_PATTERN.test(text) && !text.startsWith('[') && !text.startsWith('css=');
}

/** A word named by its text that is plain text, while a link or button with that text exists elsewhere: the model meant that one. */
async function refusePlainText(resolved: ResolvedTarget, text: string): Promise<void> {
  const control = await findControlForText(resolved.locator.first(), text, CONTROL);
  if (!control) return;
  const there = control.visible
    ? 'is visible — click it instead'
    : `is not visible: ${control.hiddenPlace ?? 'open the part of the page that holds it first'}`;
  throw new ActionError(
    `${JSON.stringify(text)} here is plain text (${control.here}), not something to click; the ${control.role} ${JSON.stringify(control.name)} ${there}`,
  );
}
