import { isoDate, isoTime, formatOffset, pad, readDate, type DateContext } from './dates';
import { findNumber } from './numbers';

/** How a read says the page left the year out; a read whose value is relative or yearless can be given by the element's own timestamp. */
export const YEAR_NOT_SHOWN = 'the year is not shown';

export const VALUE_TYPES = ['string', 'number', 'integer', 'boolean', 'date', 'list'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

/** How the page writes values: its languages, date order, decimal separator, and what relative dates count from. */
export interface ReadConventions extends DateContext {
  decimalComma?: boolean;
}

export interface TypedRead {
  value: unknown;
  /** The words the value was read from, when they are not the whole text ("30 avril 2015" in "Publié le 30 avril 2015"). */
  from?: string;
  /** How it was read, when that is worth saying (a time and zone, a relative date, an ambiguous order). */
  reading?: string;
}

/** Text → a value of the type, or undefined when the text holds none (a date that is not there, "maybe" as a boolean). */
export function readTyped(text: string, type: ValueType, conventions: ReadConventions = {}): TypedRead | undefined {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  switch (type) {
    case 'string':
      return { value: trimmed };
    case 'number':
    case 'integer': {
      const found = findNumber(trimmed, conventions.decimalComma);
      if (!found) return undefined;
      return { value: type === 'integer' ? Math.round(found.value) : found.value, from: found.text };
    }
    case 'boolean':
      if (/^(yes|true|on|checked|1|passed|success)$/i.test(trimmed)) return { value: true };
      if (/^(no|false|off|unchecked|0|failed|failure)$/i.test(trimmed)) return { value: false };
      return undefined;
    case 'date': {
      const read = readDate(trimmed, conventions);
      if (!read) return undefined;
      const relative = read.reading?.startsWith('relative') === true;
      // A date shown without its year is read as month and day (ISO 8601's --MM-DD): never given this year's.
      const value = read.yearNotShown ? `--${pad(read.date.month)}-${pad(read.date.day)}` : isoDate(read.date);
      const at =
        read.time && !relative ? ` ${isoTime(read.time)}${read.offsetMinutes === undefined ? '' : ` ${formatOffset(read.offsetMinutes)}`}` : '';
      const reading = [at ? `${value}${at} as written` : '', read.yearNotShown ? `${YEAR_NOT_SHOWN}: month and day only` : '', read.reading ?? '']
        .filter(Boolean)
        .join('; ');
      return { value, from: read.text, ...(reading ? { reading } : {}) };
    }
    case 'list':
      return {
        value: text
          .split(/\n|·|•/)
          .map(s => s.trim())
          .filter(Boolean),
      };
  }
}

/** The value alone (null when the text holds none): what recipes compare a replayed read against. */
export function coerceValue(text: string, type: ValueType, conventions: ReadConventions = {}): unknown {
  return readTyped(text, type, conventions)?.value ?? null;
}

export function applyPattern(text: string, pattern: string): string | null {
  const match = new RegExp(pattern, 'is').exec(text);
  if (!match) return null;
  return match[1] ?? match[0];
}
