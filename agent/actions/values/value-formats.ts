import { isoDate, isoTime, pad, parseDate, parseDateTime, parseMonth, parseTime, parseWeek, type DateReading } from './human-dates';

/** Input types whose value has a fixed machine format, whatever the page displays. */
export const TYPED_INPUTS = ['date', 'time', 'datetime-local', 'month', 'week', 'number', 'range', 'color'] as const;
export type TypedInput = (typeof TYPED_INPUTS)[number];

export function isTypedInput(type: string): type is TypedInput {
  return (TYPED_INPUTS as readonly string[]).includes(type);
}

/** What each field holds, said the way the model should write it when a value did not take. */
export const VALUE_FORMAT: Record<TypedInput, string> = {
  date: 'a date as YYYY-MM-DD (e.g. 2012-02-21; "Feb 21 2012" and "21/02/2012" are read too)',
  time: 'a time as HH:MM, 24-hour (e.g. 07:14; "7:14 AM" is read too)',
  'datetime-local': 'a date and time as YYYY-MM-DDTHH:MM (e.g. 2012-02-21T07:14; "Feb 21 2012 7:14 AM" is read too)',
  month: 'a month as YYYY-MM (e.g. 2012-02; "Feb 2012" is read too)',
  week: 'an ISO week as YYYY-Www (e.g. 2012-W08; "week 8 2012" or a date is read too)',
  number: 'a plain number (e.g. 1234.5)',
  range: "a number within the slider's range",
  color: 'a color as #rrggbb (e.g. #1a56db; CSS names and rgb() are read too)',
};

/** What the page says about how it writes dates and numbers. */
export interface PageConventions {
  /** The nearest `lang` attribute. */
  lang?: string;
  /** The field's placeholder, title and description, which may spell a format ("DD/MM/YYYY"). */
  hint?: string;
}

export interface Conventions {
  dayFirst?: boolean;
  decimalComma?: boolean;
  /** Where the conventions came from, for the action's description. */
  source?: string;
}

export function conventionsOf(page: PageConventions): Conventions {
  const fromLang = langConventions(page.lang);
  const hinted = /\b(dd?)\s*[/.-]\s*(mm?)\b/i.test(page.hint ?? '') ? true : /\b(mm?)\s*[/.-]\s*(dd?)\b/i.test(page.hint ?? '') ? false : undefined;
  if (hinted !== undefined)
    return { ...fromLang, dayFirst: hinted, source: `the field's format hint ${JSON.stringify(page.hint?.trim().slice(0, 40))}` };
  return fromLang;
}

function langConventions(lang: string | undefined): Conventions {
  if (!lang) return {};
  try {
    const order = new Intl.DateTimeFormat(lang, { timeZone: 'UTC' }).formatToParts(new Date(Date.UTC(2012, 1, 21))).map(part => part.type);
    const decimal = new Intl.NumberFormat(lang).formatToParts(1.5).find(part => part.type === 'decimal')?.value;
    return {
      dayFirst: order.indexOf('day') < order.indexOf('month'),
      decimalComma: decimal === ',',
      source: `the page language ${JSON.stringify(lang)}`,
    };
  } catch {
    // An invalid language tag tells us nothing.
    return {};
  }
}

export interface Converted {
  value: string;
  /** How an ambiguous text was read, when it was. */
  reading?: string;
}

/**
 * The text a person would write → the value the input holds. undefined when the text is not a value of that
 * kind; color names are left to the page (its CSS parser knows them all), so only hex is converted here.
 */
export function toInputValue(text: string, kind: TypedInput, conventions: Conventions = {}): Converted | undefined {
  const { dayFirst } = conventions;
  switch (kind) {
    case 'date': {
      const parsed = parseDate(text, dayFirst);
      return parsed && { value: isoDate(parsed.date), reading: readingNote(parsed.reading, conventions) };
    }
    case 'time': {
      const time = parseTime(text) ?? parseDateTime(text, dayFirst)?.time;
      return time && { value: isoTime(time) };
    }
    case 'datetime-local': {
      const parsed = parseDateTime(text, dayFirst);
      return parsed && { value: `${isoDate(parsed.date)}T${isoTime(parsed.time)}`, reading: readingNote(parsed.reading, conventions) };
    }
    case 'month': {
      const month = parseMonth(text, dayFirst);
      return month && { value: `${pad(month.year, 4)}-${pad(month.month)}` };
    }
    case 'week': {
      const week = parseWeek(text, dayFirst);
      return week && { value: `${pad(week.year, 4)}-W${pad(week.week)}` };
    }
    case 'number':
    case 'range': {
      const number = readNumber(text, conventions.decimalComma);
      return number === undefined ? undefined : { value: String(number) };
    }
    case 'color': {
      const hex = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim())?.[1];
      if (!hex) return undefined;
      return { value: `#${(hex.length === 3 ? [...hex].map(c => c + c).join('') : hex).toLowerCase()}` };
    }
  }
}

function readingNote(reading: DateReading, conventions: Conventions): string | undefined {
  if (reading === 'unambiguous') return undefined;
  const order = reading === 'day-first' ? 'day/month' : 'month/day';
  return `read as ${order} (${conventions.source ?? 'the page does not say how it writes dates'})`;
}

/**
 * "1,234.5", "1.234,5", "1 234", "-3", "50%", "1e3". A single separator followed by exactly three digits is
 * a thousands separator or a decimal point depending on the page's conventions ("1,234" is 1234 in English).
 */
export function readNumber(text: string, decimalComma = false): number | undefined {
  const clean = text
    .trim()
    .replace(/[\s\u00a0\u202f']/g, '')
    .replace(/%$/, '');
  if (/^[+-]?\d+(\.\d+)?e[+-]?\d+$/i.test(clean)) return Number(clean);
  if (!/^[+-]?(\d[\d.,]*|[.,]\d+)$/.test(clean) || /[.,]$/.test(clean)) return undefined;
  const decimal = decimalSeparator(clean, decimalComma);
  const grouping = decimal === '.' ? ',' : decimal === ',' ? '.' : /,/.test(clean) ? ',' : '.';
  const [whole = '', fraction, extra] = clean.split(decimal ?? '\u0000');
  if (extra !== undefined) return undefined;
  const digits = whole.split(grouping).join('');
  const number = Number(fraction === undefined ? digits : `${digits}.${fraction}`);
  return Number.isFinite(number) ? number : undefined;
}

function decimalSeparator(clean: string, decimalComma: boolean): '.' | ',' | undefined {
  const dot = clean.lastIndexOf('.');
  const comma = clean.lastIndexOf(',');
  if (dot >= 0 && comma >= 0) return dot > comma ? '.' : ',';
  const separator = dot >= 0 ? '.' : comma >= 0 ? ',' : undefined;
  if (!separator) return undefined;
  if (clean.split(separator).length > 2) return undefined;
  const digitsAfter = clean.length - clean.lastIndexOf(separator) - 1;
  if (digitsAfter !== 3) return separator;
  return (separator === ',') === decimalComma ? separator : undefined;
}
