import type * as chrono from 'chrono-node';
import type { withRelativeDates as WithRelativeDates } from './relative-dates';

/**
 * Dates and times as people write them, in the page's language ("30 avril 2015", "3. Januar 2019, 14:05 Uhr",
 * "2019年1月3日", "Thu 3 Jan 2019 02.00 EST", "2 hours ago"), read by chrono-node's locale parsers. Pure: the
 * page's languages, its date order and the moment relative dates count from arrive in a DateContext.
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

export interface DateContext {
  /** The page's language (the nearest lang attribute) first, then the browser's. */
  languages?: readonly string[];
  /** Numeric dates put the day first (03/04 = 3 April): from a format hint or the language; unset = the language decides. */
  dayFirst?: boolean;
  /** dayFirst comes from the field's own format hint: it decides even for dates written with dots (otherwise day first). */
  orderHinted?: boolean;
  /** What the conventions came from, for the reading note ("the page language \"fr\""). */
  source?: string;
  /** What "2 hours ago" and a date shown without its year count from, and what that moment is. */
  reference?: { instant: Date; said: string };
}

export interface DateRead {
  date: DateParts;
  time?: TimeParts;
  /** Minutes east of UTC, when the text says its zone ("EST", "+02:00"). */
  offsetMinutes?: number;
  /** The words the date was read from. */
  text: string;
  /** How it was read, when that is not plain: relative, an ambiguous day/month order. */
  reading?: string;
  /**
   * The text shows no year: `date.year` is the reference's, said here ("the year is not shown: 2026, from …") for a
   * caller that must have a year (a date field being filled); a read value keeps month and day only.
   */
  yearNotShown?: string;
}

type Chrono = typeof import('chrono-node');
let loaded: Chrono | undefined;
/** chrono-node with its locales is a third of `bwa validate`'s start-up (it loads every action): loaded at the first date read. */
const chronoNode = (): Chrono => (loaded ??= require('chrono-node') as Chrono);

/** chrono-node's locales (the casual parsers read "noon", "yesterday", "2 hours ago" as well as full dates). */
const LOCALE_NAMES = ['de', 'fr', 'es', 'pt', 'nl', 'it', 'ja', 'zh', 'ru', 'uk', 'sv', 'fi', 'vi', 'id'] as const;
export const DATE_LANGUAGES = ['en', ...LOCALE_NAMES];
const localeParsers = new Map<string, chrono.Chrono>();
/**
 * A language's casual parser with the relative dates chrono does not read in it ("hace 3 días", "3日前": relative-dates.ts,
 * which needs chrono too), made at its first use.
 */
function localeParser(lang: string): chrono.Chrono | undefined {
  if (!(LOCALE_NAMES as readonly string[]).includes(lang)) return undefined;
  let parser = localeParsers.get(lang);
  if (!parser) {
    const { withRelativeDates } = require('./relative-dates') as { withRelativeDates: typeof WithRelativeDates };
    parser = withRelativeDates(lang, chronoNode()[lang as (typeof LOCALE_NAMES)[number]].casual);
    localeParsers.set(lang, parser);
  }
  return parser;
}

// The first numeric date in the text, wherever it sits ("Posted 05.03.2016 14:20").
const NUMERIC_DATE = /(?<![\d./-])(\d{1,2})([-/.])(\d{1,2})\2(\d{2}|\d{4})\b/;

export function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

export function isoDate({ year, month, day }: DateParts): string {
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

export function isoTime({ hour, minute, second }: TimeParts): string {
  return second ? `${pad(hour)}:${pad(minute)}:${pad(second)}` : `${pad(hour)}:${pad(minute)}`;
}

export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Whether the language writes the day before the month in numeric dates (Intl knows every locale's order). */
export function languageDayFirst(lang: string | undefined): boolean | undefined {
  if (!lang) return undefined;
  try {
    const order = new Intl.DateTimeFormat(lang, { timeZone: 'UTC' }).formatToParts(new Date(Date.UTC(2012, 1, 21))).map(part => part.type);
    return order.indexOf('day') < order.indexOf('month');
  } catch {
    // An invalid language tag tells us nothing.
    return undefined;
  }
}

/** The parsers to try, the page's language first: a language chrono lacks falls through to the next, English last. */
function parsersFor(context: DateContext, numericDayFirst: boolean | undefined): chrono.Chrono[] {
  const { en } = chronoNode();
  const english = numericDayFirst ? en.GB : en.casual;
  const parsers: chrono.Chrono[] = [];
  for (const lang of context.languages ?? []) {
    const primary = lang.toLowerCase().split(/[-_]/)[0] ?? '';
    const parser = primary === 'en' ? english : localeParser(primary);
    if (parser && !parsers.includes(parser)) parsers.push(parser);
  }
  if (!parsers.includes(english)) parsers.push(english);
  // Text in another language than the page's (an English date on a page tagged "de"): its own parser still reads it.
  if (!parsers.includes(en.casual)) parsers.push(en.casual);
  return parsers;
}

interface Options {
  /** The whole text must be the date (a value typed into a field), not a date somewhere in a sentence. */
  whole?: boolean;
  /** A time must be there too (a date-and-time field). */
  needsTime?: boolean;
}

/**
 * The first date in the text (with its time and zone when written), read in the page's languages; undefined when there
 * is none. A weekday anywhere in it ("Dec 28 Sat 2013") does not hide the year; a text no language of the page reads is
 * tried in the other languages chrono knows (a Chinese date on a page that does not say its language), whole dates only.
 */
export function readDate(text: string, context: DateContext = {}, options: Options = {}): DateRead | undefined {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (!clean) return undefined;
  const numeric = NUMERIC_DATE.exec(clean);
  const dotted = numeric?.[2] === '.' && !context.orderHinted;
  const numericDayFirst = numeric ? (dotted ? true : (context.dayFirst ?? languageDayFirst(context.languages?.[0]))) : context.dayFirst;
  const conventions = dotted ? { ...context, source: 'written with dots, the day first' } : context;
  const read = (parsers: readonly chrono.Chrono[], parsed: string, absoluteOnly = false) =>
    firstRead(parsers, parsed, clean, conventions, numeric, numericDayFirst, options, absoluteOnly);
  const parsers = parsersFor(context, numericDayFirst);
  const first = read(parsers, clean);
  if (first?.yearNotShown) {
    const withoutWeekdays = blankWeekdays(clean, context.languages ?? []);
    const withYear = withoutWeekdays === clean ? undefined : read(parsers, withoutWeekdays);
    if (withYear && !withYear.yearNotShown) return withYear;
  }
  return first ?? read(otherParsers(parsers, clean), clean, true) ?? readHangulDate(clean, options);
}

function firstRead(
  parsers: readonly chrono.Chrono[],
  parsed: string,
  clean: string,
  context: DateContext,
  numeric: RegExpExecArray | null,
  dayFirst: boolean | undefined,
  options: Options,
  absoluteOnly: boolean,
): DateRead | undefined {
  const reference = { instant: context.reference?.instant ?? new Date(), timezone: 0 };
  for (const parser of parsers) {
    for (const result of parser.parse(parsed, reference, { forwardDate: false })) {
      const read = toDateRead(result, clean, context, numeric, dayFirst, options);
      if (read && !(absoluteOnly && (read.yearNotShown || read.reading?.startsWith('relative')))) return read;
    }
  }
  return undefined;
}

/**
 * Weekday names, long and short in the page's languages and English, long in every language chrono reads (short
 * ones elsewhere are words: Spanish "mar" is English "Mar"); blanked to spaces of the same length, so where the date
 * sits in the text does not move.
 */
function blankWeekdays(text: string, languages: readonly string[]): string {
  const names = weekdayNames(languages);
  // Alphabets have word boundaries; Chinese and Japanese run their weekday into the date ("2013年12月28日土曜日").
  const pattern = new RegExp(`(?<![${ALPHABETS}\\p{N}])(?:${names.map(escapeRegExp).join('|')})\\.?,?(?![${ALPHABETS}])`, 'giu');
  return text.replace(pattern, match => ' '.repeat(match.length));
}

const ALPHABETS = '\\p{sc=Latin}\\p{sc=Cyrillic}\\p{sc=Greek}';
const weekdayCache = new Map<string, string[]>();
function weekdayNames(languages: readonly string[]): string[] {
  const primary = [...new Set([...languages.map(lang => lang.toLowerCase().split(/[-_]/)[0] ?? ''), 'en'])].filter(Boolean);
  const cacheKey = primary.join(',');
  const cached = weekdayCache.get(cacheKey);
  if (cached) return cached;
  const names = new Set<string>();
  const addNames = (lang: string, width: 'long' | 'short') => {
    try {
      const format = new Intl.DateTimeFormat(lang, { weekday: width, timeZone: 'UTC' });
      for (let day = 0; day < 7; day++) {
        const name = format.format(new Date(Date.UTC(2024, 0, 7 + day))).replace(/\.$/, '');
        // A one-character short name (Japanese 月, "Monday") is also a word of the date itself.
        if (Array.from(name).length > 1) names.add(name);
      }
    } catch {
      // A language tag Intl does not know has no names to offer.
    }
  };
  for (const lang of DATE_LANGUAGES) addNames(lang, 'long');
  for (const lang of primary) addNames(lang, 'short');
  const list = [...names].sort((a, b) => b.length - a.length);
  weekdayCache.set(cacheKey, list);
  return list;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * chrono's languages the page's did not already cover, for a date written in none of them: only those whose month
 * names (or 年月日) the text holds, and only for text with a number in it — a parser costs hundreds of milliseconds
 * on text it finds nothing in, and more on its first reads.
 */
function otherParsers(tried: readonly chrono.Chrono[], text: string): chrono.Chrono[] {
  if (!/\d/.test(text)) return [];
  const lower = text.toLowerCase();
  const languages = /[年月日]/.test(text) ? ['ja', 'zh'] : LOCALE_NAMES.filter(lang => monthNames(lang).some(name => hasWord(lower, name)));
  return languages.map(lang => localeParser(lang)).filter((parser): parser is chrono.Chrono => Boolean(parser) && !tried.includes(parser!));
}

const monthCache = new Map<string, string[]>();
/** A language's month names as dates write them ("avril", "апреля", "Jan."), long and short, in lower case. */
function monthNames(lang: string): string[] {
  let names = monthCache.get(lang);
  if (!names) {
    const found = new Set<string>();
    for (const month of ['long', 'short'] as const) {
      try {
        const format = new Intl.DateTimeFormat(lang, { day: 'numeric', month, timeZone: 'UTC' });
        for (let m = 0; m < 12; m++)
          for (const part of format.formatToParts(new Date(Date.UTC(2024, m, 15))))
            if (part.type === 'month') found.add(part.value.toLowerCase().replace(/\.$/, ''));
      } catch {
        // A language Intl does not know names no months.
      }
    }
    names = [...found].filter(name => name.length >= 3 && !/^\d+$/.test(name));
    monthCache.set(lang, names);
  }
  return names;
}

function hasWord(text: string, word: string): boolean {
  const at = text.indexOf(word);
  return at >= 0 && !/\p{L}/u.test(text[at - 1] ?? '') && (!/\p{L}/u.test(text[at + word.length] ?? '') || word.length >= 5);
}

/** "2015년 4월 8일": the Korean form of 年月日, which chrono has no parser for. */
function readHangulDate(clean: string, options: Options): DateRead | undefined {
  const match = /(\d{4})\s*년\s*(\d{1,2})\s*월\s*(\d{1,2})\s*일/.exec(clean);
  if (!match || (options.whole && match[0].length !== clean.replace(/[\s,.;:]+$/, '').length) || options.needsTime) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return { date: { year, month, day }, text: match[0] };
}

function toDateRead(
  result: chrono.ParsedResult,
  clean: string,
  context: DateContext,
  numeric: RegExpExecArray | null,
  dayFirst: boolean | undefined,
  options: Options,
): DateRead | undefined {
  const start = result.start;
  if (options.whole && !coversWhole(clean, result)) return undefined;
  const relative = isRelative(result);
  if (!relative && !(start.isCertain('day') && start.isCertain('month'))) return undefined;
  const hasTime = start.isCertain('hour');
  if (options.needsTime && !hasTime) return undefined;
  const date = { year: start.get('year') ?? 0, month: start.get('month') ?? 0, day: start.get('day') ?? 0 };
  // The words as the page wrote them (a weekday blanked out for the parser is still part of them).
  const read: DateRead = { date, text: clean.slice(result.index, result.index + result.text.length).trim() };
  if (hasTime) {
    const second = start.get('second') ?? 0;
    read.time = { hour: start.get('hour') ?? 0, minute: start.get('minute') ?? 0, ...(second ? { second } : {}) };
  }
  const offset = start.isCertain('timezoneOffset') ? start.get('timezoneOffset') : null;
  if (offset !== null && offset !== undefined && !relative) read.offsetMinutes = offset;
  const notes: string[] = [];
  if (relative) notes.push(`relative: counted from ${context.reference?.said ?? 'the time of reading'}`);
  else if (!start.isCertain('year'))
    read.yearNotShown = `the year is not shown: ${date.year}, from ${context.reference?.said ?? 'the time of reading'}`;
  const order = numeric && ambiguousOrder(numeric) ? (dayFirst ? 'day/month' : 'month/day') : undefined;
  if (order) notes.push(`read as ${order} (${context.source ?? 'the page does not say how it writes dates'})`);
  if (notes.length) read.reading = notes.join('; ');
  return read;
}

/** "2 hours ago", "yesterday": chrono fills in every part from the reference instead of reading them. */
function isRelative(result: chrono.ParsedResult): boolean {
  return result.start.tags().has('result/relativeDate') || RELATIVE_WORDS.test(result.text);
}

const RELATIVE_WORDS =
  /\b(ago|yesterday|today|tomorrow|now|last|next|hier|aujourd|il y a|gestern|heute|vor|ayer|hoy|hace|ontem|hoje|gisteren|vandaag|geleden|ieri|oggi|fa|вчера|сегодня|назад|igår|idag|sedan)\b|前|昨日|今日|昨天|今天/i;

function ambiguousOrder(numeric: RegExpExecArray): boolean {
  const first = Number(numeric[1]);
  const second = Number(numeric[3]);
  return first !== second && first <= 12 && second <= 12;
}

/** Only punctuation and spaces are left once the date's own words are taken out. */
function coversWhole(clean: string, result: chrono.ParsedResult): boolean {
  const rest = clean.slice(0, result.index) + clean.slice(result.index + result.text.length);
  return /^[\s,.;:]*$/.test(rest);
}

/** A time alone ("7:14 AM", "19:05:30", "noon", "0714"); undefined when the text is not a time of day. */
export function readTime(text: string): TimeParts | undefined {
  const clean = text.trim();
  // A bare four-digit time ("0714") is how schedules write it; chrono wants a separator.
  const military = /^([01]\d|2[0-3])([0-5]\d)$/.exec(clean);
  const input = military ? `${military[1]}:${military[2]}` : clean;
  for (const result of chronoNode().en.GB.parse(input)) {
    if (!coversWhole(input, result) || !result.start.isCertain('hour') || result.start.isCertain('day')) continue;
    const second = result.start.get('second') ?? 0;
    return { hour: result.start.get('hour') ?? 0, minute: result.start.get('minute') ?? 0, ...(second ? { second } : {}) };
  }
  return undefined;
}

/** "Feb 2012", "February, 2012", "02/2012", "2012-02", or a whole date (its month). */
export function readMonth(text: string, context: DateContext = {}): { year: number; month: number } | undefined {
  const clean = text.replace(/\s+/g, ' ').trim();
  const iso = /^(\d{4})[-/.](\d{1,2})$/.exec(clean);
  if (iso) return validMonth(Number(iso[1]), Number(iso[2]));
  const date = readDate(clean, context, { whole: true });
  if (date) return { year: date.date.year, month: date.date.month };
  for (const parser of [...parsersFor(context, context.dayFirst), chronoNode().en.GB]) {
    for (const result of parser.parse(clean)) {
      const start = result.start;
      if (coversWhole(clean, result) && start.isCertain('month') && start.isCertain('year') && !start.isCertain('day'))
        return validMonth(start.get('year') ?? 0, start.get('month') ?? 0);
    }
  }
  return undefined;
}

function validMonth(year: number, month: number): { year: number; month: number } | undefined {
  return month >= 1 && month <= 12 ? { year, month } : undefined;
}

/** "2012-W08", "W8 2012", "week 8, 2012", "week 8 of 2012", or a date (its ISO week). */
export function readWeek(text: string, context: DateContext = {}): { year: number; week: number } | undefined {
  const clean = text.trim().replace(/\s+/g, ' ');
  const iso = /^(\d{4})-?w(\d{1,2})$/i.exec(clean);
  const spoken = /^(?:w|week|wk)\.? ?(\d{1,2}),?(?: of)? (\d{4})$/i.exec(clean);
  const parts = iso ? { year: Number(iso[1]), week: Number(iso[2]) } : spoken ? { year: Number(spoken[2]), week: Number(spoken[1]) } : undefined;
  if (parts) return parts.week >= 1 && parts.week <= weeksInYear(parts.year) ? parts : undefined;
  const date = readDate(clean, context, { whole: true })?.date;
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
