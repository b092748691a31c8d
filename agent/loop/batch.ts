import type { Page } from '@playwright/test';
import type { ActionCall } from '../actions/core/dispatch';
import { endsBatch } from '../actions/registry';
import { INTERACTIVE_SELECTOR } from '../snapshot/roles';
import type { Performed } from './types';

/** Cheap count of interactive elements: a >20% change means the refs the model planned with are stale. */
export async function interactiveCount(page: Page): Promise<number> {
  try {
    return await page.evaluate(selector => document.querySelectorAll(selector).length, INTERACTIVE_SELECTOR);
  } catch {
    return -1;
  }
}

/** Why the rest of a multi-action batch must not run, or undefined to go on. */
export function shouldBreakBatch(call: ActionCall, performed: Performed, before: number, after: number): string | undefined {
  if (!performed.result.success) return 'the previous action failed';
  if (endsBatch(call.name)) return `${call.name} ends a batch`;
  if (performed.urlAfter !== performed.urlBefore) return 'the page navigated';
  if (before < 0 || after < 0) return 'the page could not be inspected';
  if (before > 0 && Math.abs(after - before) / before > 0.2) return `the page changed (${before} → ${after} interactive elements)`;
  return undefined;
}
