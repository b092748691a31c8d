import { applyPattern, readTyped, YEAR_NOT_SHOWN, type ReadConventions, type ValueType } from './coerce';
import { languageDayFirst } from './dates';
import { decimalCommaOf } from './numbers';
import type { ElementRead } from './read-element';

/*
 * How the text read from an element becomes a field's value. `bwa recipe export` copies this file and the ones it
 * imports beside every spec it writes (SHIPPED_VALUE_FILES in recipe/shipped-values.ts), so an exported spec reads values
 * exactly as bwa does: they import only each other, chrono-node and Playwright's types.
 */

export interface ReadRule {
  field?: string;
  /** A regular expression (flags i and s); its first group, else the whole match, is the value. */
  pattern?: string;
  type?: ValueType;
  /** The text as the page holds it, spacing and all (a string field only). */
  exact?: boolean;
}

export interface ValueRead {
  value: unknown;
  /** The words the value came from, when not the whole text. */
  from?: string;
  reading?: string;
  /** Why the value is null: nothing there, a pattern that did not match, or text that is not of the type. */
  why?: 'empty' | 'no match' | 'not a type';
  message?: string;
}

/** The value read, or null when there is nothing (an empty text or attribute is not a value) and why. */
export function readValue(rule: ReadRule, read: Pick<ElementRead, 'raw' | 'named' | 'languages' | 'timestamp'>): ValueRead {
  const raw = read.raw ?? '';
  const { field = 'value', pattern, exact } = rule;
  const type: ValueType = rule.type ?? 'string';
  const matched = pattern ? applyPattern(raw, pattern) : raw;
  if (matched === null)
    return { value: null, why: 'no match', message: `"${field}": the text ${JSON.stringify(raw.slice(0, 120))} does not match /${pattern}/` };
  const named = read.named ? `no text of its own: its accessible name (${read.named})` : undefined;
  if (type === 'string') {
    const text = exact ? matched : matched.replace(/\s+/g, ' ').trim();
    return text === '' ? { value: null, why: 'empty' } : { value: text, ...(named ? { reading: named } : {}) };
  }
  if (matched.trim() === '') return { value: null, why: 'empty' };
  const conventions = conventionsOf(read.languages, read.timestamp);
  const typed = readTyped(matched, type, conventions);
  if (!typed)
    return {
      value: null,
      why: 'not a type',
      message: `"${field}": ${JSON.stringify(matched.slice(0, 80))} is not a ${type}${languageNote(conventions)}`,
    };
  const { timestamp } = read;
  // Words that are not a whole date beside the element's own machine timestamp: "2 hours ago" is the timestamp; "Dec 6"
  // is the timestamp's date only when that is Dec 6 (a datetime may be another moment: the last update).
  const partial = typed.reading?.startsWith('relative') ? 'is relative' : typed.reading?.includes(YEAR_NOT_SHOWN) ? 'shows no year' : undefined;
  const stamped = type === 'date' && partial && timestamp ? readTyped(timestamp, 'date', conventions) : undefined;
  const fits = (date: unknown) =>
    typeof date === 'string' && /^\d{4}/.test(date) && (partial === 'is relative' || date.endsWith(String(typed.value).slice(2)));
  if (stamped && timestamp && fits(stamped.value))
    return {
      value: stamped.value,
      from: typed.from,
      reading: `${JSON.stringify(typed.from)} ${partial}: the element's own timestamp ${quotedTimestamp(timestamp)}`,
    };
  return {
    value: typed.value,
    ...(typed.from && typed.from !== matched.trim() ? { from: typed.from } : {}),
    ...(typed.reading ? { reading: typed.reading } : {}),
  };
}

export interface ReadOutcome {
  /** "null": an element that is not there, an empty text, a pattern that does not match and text not of the type are null. */
  missing?: 'error' | 'null';
  /** Every match, as a list. */
  all?: boolean;
}

/**
 * extract's one rule for what a read comes to, whatever was read (elements, a document line, an exported spec's
 * elements): the value (a list with `all`), or the part that makes it fail — text not of the type, or nothing in
 * any part (empty, or no match) — unless missing is "null".
 */
export function settleReads<P extends ValueRead>(parts: readonly P[], outcome: ReadOutcome): { value: unknown } | { failed: P } {
  if (outcome.missing !== 'null') {
    const notOfType = parts.find(part => part.why === 'not a type');
    if (notOfType) return { failed: notOfType };
    const [first] = parts;
    if (first && parts.every(part => part.value === null)) return { failed: first };
  }
  const values = parts.map(part => part.value);
  return { value: outcome.all ? values : values[0] };
}

/**
 * How the page writes dates and numbers: its language (the first of `languages`, nearest lang then the browser's);
 * relative dates count from the timestamp the value carries, or now.
 */
export function conventionsOf(languages: readonly string[], timestamp?: string): ReadConventions {
  const lang = languages[0];
  const stamp = timestamp ? new Date(timestamp) : undefined;
  const now = new Date();
  const reference =
    timestamp && stamp && !Number.isNaN(stamp.getTime())
      ? { instant: stamp, said: `the element's own timestamp ${quotedTimestamp(timestamp)}` }
      : { instant: now, said: `the time of reading (${now.toISOString().slice(0, 16)}Z)` };
  return {
    languages: [...languages],
    dayFirst: languageDayFirst(lang),
    decimalComma: decimalCommaOf(lang) ?? false,
    source: lang ? `the page language ${JSON.stringify(lang)}` : undefined,
    reference,
  };
}

/** A page's datetime attribute is page text: quoted, and no longer than a timestamp, wherever a reading says it. */
function quotedTimestamp(timestamp: string): string {
  return JSON.stringify(timestamp.slice(0, 40));
}

function languageNote(conventions: ReadConventions): string {
  return conventions.languages?.length ? ` (read in ${conventions.languages.map(lang => JSON.stringify(lang)).join(', then ')})` : '';
}
