import type { Locator } from '@playwright/test';
import { z } from 'zod';
import { describeLocator, type SemanticLocator } from '../task/locator-schema';
import { applyPattern, coerceValue, VALUE_TYPES, type ValueType } from './values/coerce';
import { emptyReadMessage, readRaw } from './values/read-element';
import { REF_PATTERN, refList, resolveTarget, TargetArg, type ResolvedTarget } from './targets/target';
import { ActionError, defineAction, type ActionEnv } from './core/types';

export const extract = defineAction({
  name: 'extract',
  readsOnly: true,
  historyWeight: 2,
  collects: true,
  productive: true,
  description: 'Read a field from an element, recorded with its source.',
  verifies:
    'The element exists (with missing "null", absence is null); the text matches the pattern and the type; an empty text or attribute is a failure naming what else the element has (its text, other attributes).',
  schema: z.object({
    field: z.string().min(1).describe('Output field name'),
    target: TargetArg,
    pattern: z.string().optional().describe('Regex; group 1 (or the match) is the value'),
    type: z.enum(VALUE_TYPES).optional().describe('Default string; date = YYYY-MM-DD'),
    attribute: z.string().optional().describe('Instead of the text, e.g. "href"'),
    exact: z.boolean().optional().describe('Keep whitespace as is'),
    missing: z.enum(['error', 'null']).optional().describe('"null": absent or empty gives null'),
    all: z.boolean().optional().describe('Every match, as a list (several elements: their refs as target, "e12 e15")'),
  }),
  async handle({ field, target, pattern, type, attribute, exact, missing, all }, env) {
    const where = (locator: string, ref?: string) => ({
      source: 'dom' as const,
      url: env.page.url(),
      locator,
      ref,
      step: env.step,
      at: new Date().toISOString(),
    });
    let read: ReadTarget;
    try {
      read = await resolveRead(target, Boolean(all), env);
    } catch (error) {
      // Only an element that is not there is a null field; a tab that is gone is a failure.
      if (missing !== 'null' || (error instanceof ActionError && error.infra)) throw error;
      const provenance = where(typeof target === 'string' ? target : describeLocator(target));
      return { description: `${field} = null (element not on the page)`, effects: { extracted: { field, value: null, provenance } } };
    }
    const values: unknown[] = [];
    let empty: string | undefined;
    for (const { locator, label } of read.elements) {
      const raw = await readRaw(locator, attribute, Boolean(exact));
      const value = raw === null ? null : readValue(field, raw, pattern, type, Boolean(exact));
      if (value === null) empty ??= await emptyReadMessage(locator, field, label, attribute, raw === null);
      values.push(value);
    }
    const nothing = values.every(v => v === null);
    if (empty && nothing && missing !== 'null') throw new ActionError(empty);
    const value = all ? values : values[0];
    const provenance = where(read.locator, typeof target === 'string' && REF_PATTERN.test(target) ? target : undefined);
    const emptyNote = empty
      ? ` (${all && !nothing ? `${values.filter(v => v === null).length} of ${values.length} empty → null` : 'empty → null'})`
      : '';
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 200)) : JSON.stringify(value);
    return {
      description: `${field} = ${shown}${emptyNote} (from ${read.label})`,
      element: read.element,
      effects: { extracted: { field, value, provenance } },
    };
  },
});

interface ReadTarget {
  elements: Array<{ locator: Locator; label: string }>;
  label: string;
  /** How the provenance names where the value was read. */
  locator: string;
  /** One locator for every element read, recorded for recipes; none when the model named the elements one by one. */
  element?: SemanticLocator;
}

/**
 * The element(s) to read: one target (every match of it with `all`), or several refs the model listed; those are
 * read in the order given and leave no locator to record (a recipe finds them by the values they showed).
 */
async function resolveRead(target: TargetArg, all: boolean, env: ActionEnv): Promise<ReadTarget> {
  const refs = all ? refList(target) : undefined;
  if (refs) {
    const each: ResolvedTarget[] = [];
    for (const ref of refs) each.push(await resolveTarget(ref, env));
    return {
      elements: each.map(r => ({ locator: r.locator, label: r.label })),
      label: each.map(r => r.label).join(', '),
      locator: each.map(r => describeLocator(r.element)).join(' + '),
    };
  }
  const resolved = await resolveTarget(target, env, { allowMany: all });
  const locators = all ? await resolved.locator.all() : [resolved.locator.first()];
  return {
    elements: locators.map(locator => ({ locator, label: resolved.label })),
    label: resolved.label,
    locator: describeLocator(resolved.element),
    element: resolved.element,
  };
}

/** The value read, or null when there is nothing (an empty text or attribute is not a value). */
function readValue(field: string, raw: string, pattern: string | undefined, type: ValueType | undefined, exact: boolean): unknown {
  const matched = pattern ? applyPattern(raw, pattern) : raw;
  if (matched === null) throw new ActionError(`"${field}": the element text ${JSON.stringify(raw.slice(0, 120))} does not match /${pattern}/`);
  if ((type ?? 'string') === 'string') {
    const text = exact ? matched : (coerceValue(matched, 'string') as string);
    return text === '' ? null : text;
  }
  if (matched.trim() === '') return null;
  const value = coerceValue(matched, type!);
  if (value === null) throw new ActionError(`"${field}": ${JSON.stringify(matched.slice(0, 80))} is not a ${type}`);
  return value;
}
