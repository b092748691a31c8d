import { z } from 'zod';

/** A target described the way a person would point at it; resolved with Playwright's user-facing locators. */
export const SemanticLocator = z.union([
  z.strictObject({
    role: z.string().min(1).describe('ARIA role, e.g. "link", "button", "textbox"'),
    name: z.string().optional().describe('Accessible name; omitted = any element of that role'),
    exact: z.boolean().optional().describe('Match the name exactly (default: exact first, then partial)'),
    nth: z.number().int().nonnegative().optional().describe('Pick the n-th match (0-based) when several match'),
  }),
  z.strictObject({ label: z.string().min(1).describe('Form control by its label text'), nth: z.number().int().nonnegative().optional() }),
  z.strictObject({
    text: z.string().min(1).describe('Element by its visible text'),
    exact: z.boolean().optional(),
    nth: z.number().int().nonnegative().optional(),
  }),
  z.strictObject({ placeholder: z.string().min(1).describe('Input by its placeholder'), nth: z.number().int().nonnegative().optional() }),
  z.strictObject({ testId: z.string().min(1).describe('Element by its data-testid'), nth: z.number().int().nonnegative().optional() }),
  z.strictObject({ css: z.string().min(1).describe('CSS selector — last resort'), nth: z.number().int().nonnegative().optional() }),
]);
export type SemanticLocator = z.infer<typeof SemanticLocator>;

export function describeLocator(locator: SemanticLocator): string {
  const nth = locator.nth !== undefined ? ` #${locator.nth}` : '';
  if ('role' in locator) return `${locator.role}${locator.name !== undefined ? ` ${JSON.stringify(locator.name)}` : ''}${nth}`;
  if ('label' in locator) return `label ${JSON.stringify(locator.label)}${nth}`;
  if ('text' in locator) return `text ${JSON.stringify(locator.text)}${nth}`;
  if ('placeholder' in locator) return `placeholder ${JSON.stringify(locator.placeholder)}${nth}`;
  if ('testId' in locator) return `testId ${JSON.stringify(locator.testId)}${nth}`;
  return `css=${locator.css}${nth}`;
}
