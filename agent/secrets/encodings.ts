/**
 * The forms a secret takes once a page, a URL or a serialiser has handled it, as one regular expression per secret:
 * each character may appear as itself, URL-encoded (%22, + for a space), HTML-encoded (&quot; &#34; &#x22;),
 * JSON-escaped at any depth (\" \\\" \\ \u0022 \/), or URL-encoded after JSON escaping — in any mix, since a page
 * may encode only the characters it must.
 */

const SYNTAX = /[\\^$.*+?()[\]{}|/]/g;
const literal = (text: string): string => text.replace(SYNTAX, '\\$&');
const anyCaseHex = (hex: string): string =>
  hex
    .split('')
    .map(d => (/[a-f]/i.test(d) ? `[${d.toLowerCase()}${d.toUpperCase()}]` : d))
    .join('');
const jsonEscaped = (text: string): string => JSON.stringify(text).slice(1, -1);
const percentEncoded = (text: string): string =>
  [...Buffer.from(text, 'utf8')].map(byte => `%${anyCaseHex(byte.toString(16).padStart(2, '0'))}`).join('');

/** \u escapes, one per UTF-16 unit (a character outside the BMP is a surrogate pair), at any depth of escaping. */
const unicodeEscaped = (char: string): string =>
  Array.from({ length: char.length }, (_, i) => `\\\\+u${anyCaseHex(char.charCodeAt(i).toString(16).padStart(4, '0'))}`).join('');

const NAMED_ENTITIES: Readonly<Record<string, readonly string[]>> = {
  '&': ['&amp;'],
  '<': ['&lt;'],
  '>': ['&gt;'],
  '"': ['&quot;'],
  "'": ['&apos;'],
  ' ': ['&nbsp;', '\u00a0', '+'],
};

/** Every way one character (a code point) of a secret can be written, as regular-expression sources. */
function characterForms(char: string): string[] {
  const code = char.codePointAt(0)!;
  const json = jsonEscaped(char);
  const forms = [
    literal(char),
    percentEncoded(char),
    `&#0*${code};`,
    `&#[xX]0*${anyCaseHex(code.toString(16))};`,
    ...(NAMED_ENTITIES[char] ?? []).map(literal),
    unicodeEscaped(char),
  ];
  // JSON escaping at any depth (JSON inside JSON inside a quoted page string): the escape's backslash doubles each time.
  if (char === '/') forms.push('\\\\+/');
  if (json !== char) forms.push(`\\\\+${literal(json.slice(1))}`, `(?:%5[cC])+${percentEncoded(json.slice(1))}`);
  return [...new Set(forms)];
}

const WORD = /[\p{L}\p{N}_]/u;
const DIGIT = /\p{N}/u;
const WORD_BEFORE = /[\p{L}\p{N}_]$/u;
/** An escape just before the secret ends the word before it: "\nhunter2", "%0Ahunter2", "\u00e9hunter2". */
const ESCAPE_BEFORE = /(?:\\[nrtbf]|\\u[0-9A-Fa-f]{4}|%[0-9A-Fa-f]{2})$/;
const NUMBER_BEFORE = /\p{N}[.,]$/u;

/**
 * The secret as a whole token unless it is distinctive (isDistinctive): a secret that starts (ends) with a letter or
 * digit is not taken from inside a longer word, identifier or number — "editor" is not in "last_editor", "1234" not
 * in "1234.50" or "21234". Such a secret glued to other letters is thereby not masked: it is no longer the secret's
 * text but a longer word's. The expression checks what follows; what precedes is `startsToken`'s, which the masker
 * asks only where the expression matched and only of a secret that is not distinctive (a look-behind tried at every
 * position of a long page costs a hundred times more).
 */
export function secretPatternSource(value: string): string {
  const chars = Array.from(value);
  const last = chars.at(-1)!;
  const body = chars.map(char => `(?:${characterForms(char).join('|')})`).join('');
  const after = WORD.test(last) && !isDistinctive(value) ? `(?![\\p{L}\\p{N}_])${DIGIT.test(last) ? '(?![.,]\\p{N})' : ''}` : '';
  return `${body}${after}`;
}

/** What writes words, numbers and dates apart ("New York", "555-0100", "1,000,000", "2024-01-15"): no mark of a key. */
const SEPARATOR = /[\s.,:;/'’-]/u;

/**
 * A value no page writes for its own reasons: 8 characters or more that mix letters with digits or with a symbol
 * that is no separator, or 20 or more of anything. Found inside a longer token (`sk_live_<key>`, `<key>==`), it is
 * still the secret, so it is masked there too; a name, a phrase, a phone number or a date only as a token of its own.
 */
export function isDistinctive(value: string): boolean {
  const chars = Array.from(value);
  if (chars.length >= 20) return true;
  const has = (kind: RegExp) => chars.some(char => kind.test(char));
  const symbol = chars.some(char => !/[\p{L}\p{N}]/u.test(char) && !SEPARATOR.test(char));
  return chars.length >= 8 && [has(/\p{L}/u), has(/\p{N}/u), symbol].filter(Boolean).length >= 2;
}

/** Whether a match of the secret at `index` starts a token of its own (see secretPatternSource). */
export function startsToken(text: string, index: number, value: string): boolean {
  const first = Array.from(value)[0]!;
  if (index === 0 || !WORD.test(first)) return true;
  const before = text.slice(Math.max(0, index - 6), index);
  if (DIGIT.test(first) && NUMBER_BEFORE.test(before)) return false;
  return !WORD_BEFORE.test(before) || ESCAPE_BEFORE.test(before);
}
