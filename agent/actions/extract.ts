import type { Locator } from '@playwright/test';
import { z } from 'zod';
import { describeLocator } from '../task/locator-schema';
import { applyPattern, coerceValue, VALUE_TYPES, type ValueType } from './coerce';
import { resolveTarget, TargetArg } from './target';
import { ActionError, defineAction } from './types';

export const extract = defineAction({
  name: 'extract',
  description: 'Read a field from an element (recorded with its source).',
  schema: z.object({
    field: z.string().min(1).describe('Output field name'),
    target: TargetArg,
    pattern: z.string().optional().describe('Regex on the text; group 1 (or the match) is the value'),
    type: z.enum(VALUE_TYPES).optional().describe('Default string; date = YYYY-MM-DD'),
    attribute: z.string().optional().describe('Instead of the text, e.g. "href"'),
    missing: z.enum(['error', 'null']).optional().describe('"null": an absent element gives null'),
    all: z.boolean().optional().describe('Every match, as a list'),
  }),
  async handle({ field, target, pattern, type, attribute, missing, all }, env) {
    let resolved;
    try {
      resolved = await resolveTarget(target, env, { allowMany: all });
    } catch (error) {
      // Only an element that is not there is a null field; a tab that is gone is a failure.
      if (missing !== 'null' || (error instanceof ActionError && error.infra)) throw error;
      const provenance = { source: 'dom' as const, url: env.page.url(), locator: typeof target === 'string' ? target : describeLocator(target), step: env.step, at: new Date().toISOString() };
      return { description: `${field} = null (element not on the page)`, effects: { extracted: { field, value: null, provenance } } };
    }
    const elements = all ? await resolved.locator.all() : [resolved.locator.first()];
    const values: unknown[] = [];
    for (const element of elements) values.push(readValue(field, await readRaw(element, attribute), pattern, type));
    const value = all ? values : values[0];
    const provenance = {
      source: 'dom' as const,
      url: env.page.url(),
      locator: describeLocator(resolved.element),
      ref: typeof target === 'string' && /^(?:f\d+)?e\d+$/.test(target) ? target : undefined,
      step: env.step,
      at: new Date().toISOString(),
    };
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 200)) : JSON.stringify(value);
    return { description: `${field} = ${shown} (from ${resolved.label})`, element: resolved.element, effects: { extracted: { field, value, provenance } } };
  },
});

function readValue(field: string, raw: string, pattern: string | undefined, type: ValueType | undefined): unknown {
  const matched = pattern ? applyPattern(raw, pattern) : raw;
  if (matched === null) throw new ActionError(`"${field}": the element text ${JSON.stringify(raw.slice(0, 120))} does not match /${pattern}/`);
  const value = coerceValue(matched, type ?? 'string');
  if (value === null && type && type !== 'string') throw new ActionError(`"${field}": ${JSON.stringify(matched.slice(0, 80))} is not a ${type}`);
  return value;
}

async function readRaw(locator: Locator, attribute?: string): Promise<string> {
  if (attribute) return (await locator.getAttribute(attribute, { timeout: 5_000 })) ?? '';
  return locator.evaluate(el => {
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return el.value;
    // innerText is empty for content that is not rendered (a closed <details>); the text is still on the page.
    return (el as HTMLElement).innerText || el.textContent || '';
  });
}
