import type { Locator } from '@playwright/test';
import { locateOne, NoElementError, type LocateOptions } from './locate';
import { emptyReadMessage, readElement } from './read-element';
import { readValue, settleReads, type ReadOutcome, type ReadRule, type ValueRead } from './read-value';

/*
 * An exported spec's extract step (`bwa recipe export`): the element picked by bwa's rule (locate), read by
 * readElement, its value by readValue, and what the read comes to by settleReads — extract's own pieces, in
 * extract's order. Shipped with the value rules; it imports only them and Playwright's types.
 */

export interface FieldRead extends ReadRule, ReadOutcome {
  attribute?: string;
}

/** The field's value, or an error saying why there is none (null where extract gives null). */
export async function readField(
  candidates: readonly Locator[],
  rule: FieldRead,
  pick: Pick<LocateOptions, 'nth' | 'controls'> = {},
): Promise<unknown> {
  let locator: Locator;
  try {
    locator = await locateOne(candidates, { ...pick, many: rule.all });
  } catch (error) {
    if (rule.missing === 'null' && error instanceof NoElementError) return null;
    throw error;
  }
  const elements = rule.all ? await locator.all() : [locator.first()];
  const parts: Array<ValueRead & { element: Locator; absent: boolean }> = [];
  for (const element of elements) {
    const read = await readElement(element, { attribute: rule.attribute, exact: rule.exact ?? false });
    const value: ValueRead = read.raw === null ? { value: null, why: 'empty' } : readValue(rule, read);
    parts.push({ ...value, element, absent: read.raw === null });
  }
  const settled = settleReads(parts, rule);
  if (!('failed' in settled)) return settled.value;
  const { failed } = settled;
  if (failed.why !== 'empty') throw new Error(failed.message ?? '');
  throw new Error(await emptyReadMessage(failed.element, rule.field ?? 'value', String(failed.element), rule.attribute, failed.absent));
}
