/**
 * Dates and times the way people write them ("Feb 21 2012", "21/02/2012", "7:14 AM") read into their parts.
 * Pure: the page's conventions arrive as `dayFirst`.
 */

export interface DateParts {
  year: number;
  month: number;
  day: number;
}

export interface TimeParts {
  hour: number;
  minute: number;
  second?: number;
}

/** How an ambiguous numeric date (03/04/2012) was read, so the model can see it. */
export type DateReading = 'unambiguous' | 'day-first' | 'month-first';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAY = /\b(mon|tues?|wed(nes)?|thu(rs?)?|fri|sat(ur)?|sun)(day)?\b\.?,?/gi;
const MONTH_WORD = /\b(jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sept?(ember)?|oct(ober)?|nov(ember)?|dec(ember)?)\b\.?/i;

export function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

export function isoDate({ year, month, day }: DateParts): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

export function isoTime({ hour, minute, second }: TimeParts): string {
  return second ? `${pad(hour)}:${pad(minute)}:${pad(second)}` : `${pad(hour)}:${pad(minute)}`;
}

function fullYear(text: string): number {
  const year = Number(text);
  if (text.length > 2) return year;
  return year < 70 ? 2000 + year : 1900 + year;
}

function valid(parts: DateParts): DateParts | undefined {
  const { year, month, day } = parts;
  if (month < 1 || month > 12 || day < 1) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth ? parts : undefined;
}

/** "2012-02-21", "21/02/2012", "02/21/2012", "21.02.2012", "Feb 21 2012", "21 February 2012", "Tuesday, February 21st, 2012". */
export function parseDate(text: string, dayFirst?: boolean): { date: DateParts; reading: DateReading } | undefined {
  const clean = text.trim().replace(WEEKDAY, ' ').replace(/\s+/g, ' ').trim().replace(/^,\s*/, '');
  const iso = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(clean);
  if (iso) {
    const date = valid({ year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) });
    return date && { date, reading: 'unambiguous' };
  }
  const numeric = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{2}|\d{4})$/.exec(clean);
  if (numeric) return numericDate(Number(numeric[1]), Number(numeric[3]), fullYear(numeric[4]!), numeric[2] === '.' ? (dayFirst ?? true) : dayFirst);
  return namedMonthDate(clean);
}

function numericDate(
  first: number,
  second: number,
  year: number,
  dayFirst: boolean | undefined,
): { date: DateParts; reading: DateReading } | undefined {
  const asDayFirst = valid({ year, month: second, day: first });
  const asMonthFirst = valid({ year, month: first, day: second });
  if (asDayFirst && !asMonthFirst) return { date: asDayFirst, reading: 'unambiguous' };
  if (asMonthFirst && !asDayFirst) return { date: asMonthFirst, reading: 'unambiguous' };
  if (!asDayFirst || !asMonthFirst) return undefined;
  if (first === second) return { date: asDayFirst, reading: 'unambiguous' };
  return dayFirst ? { date: asDayFirst, reading: 'day-first' } : { date: asMonthFirst, reading: 'month-first' };
}

function namedMonthDate(clean: string): { date: DateParts; reading: DateReading } | undefined {
  const monthWord = MONTH_WORD.exec(clean);
  if (!monthWord) return undefined;
  const month = MONTHS.indexOf(monthWord[1]!.slice(0, 3).toLowerCase()) + 1;
  const rest = `${clean.slice(0, monthWord.index)} ${clean.slice(monthWord.index + monthWord[0].length)}`;
  const numbers = [...rest.matchAll(/\d+(?:st|nd|rd|th)?/gi)].map(m => m[0].replace(/\D/g, ''));
  if (numbers.length !== 2 || /[a-z]/i.test(rest.replace(/\d+(st|nd|rd|th)\b/gi, '').replace(/\bof\b/gi, ''))) return undefined;
  const yearText = numbers.find(n => n.length === 4) ?? numbers[1]!;
  const dayText = numbers.find(n => n !== yearText) ?? numbers[0]!;
  if (dayText.length > 2) return undefined;
  const date = valid({ year: fullYear(yearText), month, day: Number(dayText) });
  return date && { date, reading: 'unambiguous' };
}

/** "7:14 AM", "07:14", "19:05:30", "7pm", "0714", "noon", "midnight". */
export function parseTime(text: string): TimeParts | undefined {
  const clean = text.trim().toLowerCase().replace(/\s+/g, ' ');
  if (clean === 'noon') return { hour: 12, minute: 0 };
  if (clean === 'midnight') return { hour: 0, minute: 0 };
  const match = /^(\d{1,2})(?:[:.h](\d{2})(?:[:.](\d{2}))?)?\s*([ap])?\.?(?:m\.?)?$/.exec(clean) ?? /^(\d{2})(\d{2})()()$/.exec(clean);
  if (!match) return undefined;
  let hour = Number(match[1]);
  const minute = Number(match[2] || 0);
  const second = match[3] ? Number(match[3]) : undefined;
  const meridiem = match[4];
  // A bare number ("19") is an hour only with a.m./p.m.; otherwise it is too likely to be something else.
  if (match[2] === undefined && !meridiem) return undefined;
  if (meridiem) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (meridiem === 'p' ? 12 : 0);
  }
  if (hour > 23 || minute > 59 || (second ?? 0) > 59) return undefined;
  return { hour, minute, ...(second ? { second } : {}) };
}

const TRAILING_TIME = /(?:^|[\sT,@]|\bat\b)\s*(\d{1,2}(?:[:.]\d{2}){1,2}\s*(?:[ap]\.?m?\.?)?|\d{1,2}\s*[ap]\.?m\.?|noon|midnight)$/i;

/** "2012-02-21T07:14", "Feb 21 2012 7:14 AM", "21/02/2012, 19:05", "2012-02-21 at 7pm". */
export function parseDateTime(text: string, dayFirst?: boolean): { date: DateParts; time: TimeParts; reading: DateReading } | undefined {
  const clean = text.trim();
  const iso = /^(\d{4}-\d{1,2}-\d{1,2})[T ](\d{1,2}:\d{2}(?::\d{2})?)(?:\.\d+)?$/.exec(clean);
  const timeMatch = iso ? undefined : TRAILING_TIME.exec(clean);
  const datePart = iso
    ? iso[1]!
    : timeMatch
      ? clean
          .slice(0, timeMatch.index)
          .replace(/(,|\bat)\s*$/i, '')
          .trim()
      : undefined;
  const timePart = iso ? iso[2]! : timeMatch?.[1];
  if (!datePart || !timePart) return undefined;
  const date = parseDate(datePart, dayFirst);
  const time = parseTime(timePart);
  return date && time ? { ...date, time } : undefined;
}

/** "2012-02", "02/2012", "Feb 2012", "February, 2012", or a whole date (its month). */
export function parseMonth(text: string, dayFirst?: boolean): { year: number; month: number } | undefined {
  const clean = text.trim().replace(/\s+/g, ' ');
  const iso = /^(\d{4})[-/.](\d{1,2})$/.exec(clean);
  const numeric = /^(\d{1,2})[-/.](\d{4})$/.exec(clean);
  const named = MONTH_WORD.exec(clean);
  let parts: { year: number; month: number } | undefined;
  if (iso) parts = { year: Number(iso[1]), month: Number(iso[2]) };
  else if (numeric) parts = { year: Number(numeric[2]), month: Number(numeric[1]) };
  else if (named && /^[a-z.]+,? \d{4}$|^\d{4},? [a-z.]+$/i.test(clean)) {
    parts = { year: Number(/\d{4}/.exec(clean)![0]), month: MONTHS.indexOf(named[1]!.slice(0, 3).toLowerCase()) + 1 };
  } else {
    const date = parseDate(clean, dayFirst)?.date;
    parts = date && { year: date.year, month: date.month };
  }
  return parts && parts.month >= 1 && parts.month <= 12 ? parts : undefined;
}

/** "2012-W08", "W8 2012", "week 8, 2012", "week 8 of 2012", or a date (its ISO week). */
export function parseWeek(text: string, dayFirst?: boolean): { year: number; week: number } | undefined {
  const clean = text.trim().replace(/\s+/g, ' ');
  const iso = /^(\d{4})-?w(\d{1,2})$/i.exec(clean);
  const spoken = /^(?:w|week|wk)\.? ?(\d{1,2}),?(?: of)? (\d{4})$/i.exec(clean);
  const parts = iso ? { year: Number(iso[1]), week: Number(iso[2]) } : spoken ? { year: Number(spoken[2]), week: Number(spoken[1]) } : undefined;
  if (parts) return parts.week >= 1 && parts.week <= weeksInYear(parts.year) ? parts : undefined;
  const date = parseDate(clean, dayFirst)?.date;
  return date && isoWeekOf(date);
}

export function isoWeekOf({ year, month, day }: DateParts): { year: number; week: number } {
  // The ISO week belongs to the year of its Thursday; week 1 holds January 4th.
  const thursday = thursdayOfWeek(new Date(Date.UTC(year, month - 1, day)));
  const weekYear = thursday.getUTCFullYear();
  const firstThursday = thursdayOfWeek(new Date(Date.UTC(weekYear, 0, 4)));
  return { year: weekYear, week: 1 + Math.round((thursday.getTime() - firstThursday.getTime()) / (7 * 86_400_000)) };
}

function thursdayOfWeek(date: Date): Date {
  const thursday = new Date(date);
  thursday.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7) + 3);
  return thursday;
}

function weeksInYear(year: number): number {
  return isoWeekOf({ year, month: 12, day: 28 }).week;
}
