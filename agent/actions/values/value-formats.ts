import { isoDate, isoTime, languageDayFirst, pad, readDate, readMonth, readTime, readWeek, type DateContext, type DateRead } from './dates';
import { decimalCommaOf, readNumber } from './numbers';

export { readNumber } from './numbers';

/** Input types whose value has a fixed machine format, whatever the page displays. */
export const TYPED_INPUTS = ['date', 'time', 'datetime-local', 'month', 'week', 'number', 'range', 'color'] as const;
export type TypedInput = (typeof TYPED_INPUTS)[number];

export function isTypedInput(type: string): type is TypedInput {
  return (TYPED_INPUTS as readonly string[]).includes(type);
}

/** What each field holds, said the way the model should write it when a value did not take. */
export const VALUE_FORMAT: Record<TypedInput, string> = {
  date: 'a date as YYYY-MM-DD (e.g. 2012-02-21; "Feb 21 2012", "21/02/2012" and dates in the page\'s language are read too)',
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
  /** dayFirst is the field's own format hint's. */
  orderHinted?: boolean;
  decimalComma?: boolean;
  /** The page's language, so dates in words are read in it ("21 février 2012"). */
  lang?: string;
  /** Where the conventions came from, for the action's description. */
  source?: string;
}

export function conventionsOf(page: PageConventions): Conventions {
  const fromLang = langConventions(page.lang);
  const hinted = /\b(dd?)\s*[/.-]\s*(mm?)\b/i.test(page.hint ?? '') ? true : /\b(mm?)\s*[/.-]\s*(dd?)\b/i.test(page.hint ?? '') ? false : undefined;
  if (hinted !== undefined)
    return { ...fromLang, dayFirst: hinted, orderHinted: true, source: `the field's format hint ${JSON.stringify(page.hint?.trim().slice(0, 40))}` };
  return fromLang;
}

function langConventions(lang: string | undefined): Conventions {
  const dayFirst = languageDayFirst(lang);
  if (dayFirst === undefined) return {};
  return { dayFirst, decimalComma: decimalCommaOf(lang) ?? false, lang, source: `the page language ${JSON.stringify(lang)}` };
}

function dateContext(conventions: Conventions): DateContext {
  return {
    languages: conventions.lang ? [conventions.lang] : [],
    dayFirst: conventions.dayFirst,
    orderHinted: conventions.orderHinted,
    source: conventions.source,
  };
}

/** A date field needs a year: one the text does not show is the reference's, and the reading says so. */
function readingOf(read: DateRead): { reading?: string } {
  const reading = [read.yearNotShown, read.reading].filter(Boolean).join('; ');
  return reading ? { reading } : {};
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
  const context = dateContext(conventions);
  switch (kind) {
    case 'date': {
      const read = readDate(text, context, { whole: true });
      return read && { value: isoDate(read.date), ...readingOf(read) };
    }
    case 'time': {
      const time = readTime(text) ?? readDate(text, context, { whole: true, needsTime: true })?.time;
      return time && { value: isoTime(time) };
    }
    case 'datetime-local': {
      const read = readDate(text, context, { whole: true, needsTime: true });
      return read?.time && { value: `${isoDate(read.date)}T${isoTime(read.time)}`, ...readingOf(read) };
    }
    case 'month': {
      const month = readMonth(text, context);
      return month && { value: `${pad(month.year, 4)}-${pad(month.month)}` };
    }
    case 'week': {
      const week = readWeek(text, context);
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
      return {
        value: `#${(hex.length === 3
          ? hex
              .split('')
              .map(c => c + c)
              .join('')
          : hex
        ).toLowerCase()}`,
      };
    }
  }
}
