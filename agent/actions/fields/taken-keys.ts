import type { Locator } from '@playwright/test';
import { PAGE_READ_MS } from '../core/limits';

/**
 * A field the page empties as it takes each key (a console's input, a chat that echoes keys elsewhere) does not
 * hold what was typed, yet every key arrived: the page shows the text elsewhere. Read before typing how often the
 * page around the field shows the text, and after: more occurrences, and the line that holds the new one, say so.
 */
export interface ShownCount {
  count: number;
}

const LINE_CHARS = 120;

/** How often the part of the page around the field (its form, dialog or main, else the body) shows the text now. */
export async function countShown(locator: Locator, text: string): Promise<ShownCount | undefined> {
  if (!text.trim()) return undefined;
  return locator
    .evaluate(shownInPage, { text, line: LINE_CHARS }, { timeout: PAGE_READ_MS })
    .then(found => ({ count: found.count }))
    .catch(() => undefined);
}

/** The line that now shows the text, when the page shows it more often than before typing; undefined otherwise. */
export async function shownElsewhere(locator: Locator, text: string, before: ShownCount | undefined): Promise<string | undefined> {
  if (!before) return undefined;
  const after = await locator.evaluate(shownInPage, { text, line: LINE_CHARS }, { timeout: PAGE_READ_MS }).catch(() => undefined);
  return after && after.count > before.count ? after.line : undefined;
}

/** Runs in the page; self-contained because Playwright serialises it. */
function shownInPage(field: Element, args: { text: string; line: number }): { count: number; line?: string } {
  const region = field.closest('form, dialog, [role=dialog], main') ?? document.body;
  const shown = (region as HTMLElement).innerText ?? '';
  let count = 0;
  for (let at = shown.indexOf(args.text); at !== -1; at = shown.indexOf(args.text, at + args.text.length)) count++;
  const last = shown.lastIndexOf(args.text);
  if (last === -1) return { count };
  const start = shown.lastIndexOf('\n', last) + 1;
  const end = shown.indexOf('\n', last + args.text.length);
  const line = shown.slice(start, end === -1 ? undefined : end).trim();
  return { count, line: line.length > args.line ? `${line.slice(0, args.line - 1)}…` : line };
}
