import { z } from 'zod';
import { DocumentSource } from '../evidence/result-schema';

/** How to pick one element when a locator matches several: the same two keys on every locator form. */
const Pick = {
  nth: z.number().int().nonnegative().optional().describe('When several elements match: the n-th, 0-based, in page order'),
  first: z.literal(true).optional().describe('When several elements match: the first in page order (the same as "nth": 0)'),
};

/** A target described the way a person would point at it; resolved with Playwright's user-facing locators. */
export const SemanticLocator = z
  .union([
    z.strictObject({
      role: z.string().min(1).describe('ARIA role, e.g. "link", "button", "textbox"'),
      name: z.string().optional().describe('Accessible name; omitted = any element of that role'),
      exact: z.boolean().optional().describe('Match the name exactly (default: exact first, then partial)'),
      ...Pick,
    }),
    z.strictObject({ label: z.string().min(1).describe('Form control by its label text'), ...Pick }),
    z.strictObject({
      text: z.string().min(1).describe('Element by its visible text'),
      exact: z.boolean().optional().describe('Match the text exactly (default: exact first, then partial)'),
      ...Pick,
    }),
    z.strictObject({ placeholder: z.string().min(1).describe('Input by its placeholder'), ...Pick }),
    z.strictObject({ testId: z.string().min(1).describe('Element by its data-testid'), ...Pick }),
    z.strictObject({ css: z.string().min(1).describe('CSS selector — last resort'), ...Pick }),
  ])
  // Wherever a locator is read (a spec's recipe, a compiled recipe, a recorded step): both keys say which match twice.
  .refine(locator => !(locator.nth !== undefined && locator.first), { message: '"nth" and "first" both pick a match — keep one' });
export type SemanticLocator = z.infer<typeof SemanticLocator>;

/**
 * A fact the page says about itself (the page state's document section): read again by where the page says it, not
 * by an element — a meta tag has none on screen. Only `extract` reads it; a recorded read of a `d3` line replays so.
 */
export const DocumentFactTarget = z.strictObject({
  document: DocumentSource.describe(
    'Where the page says it: "meta" (a meta tag, <title>, <html lang>), "json-ld", or "dom" (microdata, <time datetime>)',
  ),
  key: z
    .string()
    .min(1)
    .describe('Which one, as the read recorded it: "article:published_time", "[0].@graph[1].author[0].name", "itemprop=author", "time[datetime] 1"'),
});
export type DocumentFactTarget = z.infer<typeof DocumentFactTarget>;

export const isDocumentFactTarget = (target: unknown): target is DocumentFactTarget => DocumentFactTarget.safeParse(target).success;

export const describeDocumentFact = (target: DocumentFactTarget): string => `${target.document} ${target.key}`;

/** Which of several matches a locator picks (nth, or first = 0); undefined when it asks for the single match. */
export function pickedIndex(locator: SemanticLocator): number | undefined {
  return locator.nth ?? (locator.first ? 0 : undefined);
}

export function describeLocator(locator: SemanticLocator): string {
  // As written: "first": true reads (first), "nth": 2 reads #2.
  const nth = locator.nth !== undefined ? ` #${locator.nth}` : locator.first ? ' (first)' : '';
  if ('role' in locator) return `${locator.role}${locator.name !== undefined ? ` ${JSON.stringify(locator.name)}` : ''}${nth}`;
  if ('label' in locator) return `label ${JSON.stringify(locator.label)}${nth}`;
  if ('text' in locator) return `text ${JSON.stringify(locator.text)}${nth}`;
  if ('placeholder' in locator) return `placeholder ${JSON.stringify(locator.placeholder)}${nth}`;
  if ('testId' in locator) return `testId ${JSON.stringify(locator.testId)}${nth}`;
  return `css=${locator.css}${nth}`;
}
