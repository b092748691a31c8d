/**
 * Numbers as pages write them: "1,234.5" in English, "1.234,5" in German or French, "1 234" with a thin space,
 * "1.2k", "$3.50". The page's language tells which separator is the decimal one (Intl knows every locale's).
 */

/** Whether the language writes decimals with a comma; undefined for a tag Intl does not know. */
export function decimalCommaOf(lang: string | undefined): boolean | undefined {
  if (!lang) return undefined;
  try {
    return new Intl.NumberFormat(lang).formatToParts(1.5).find(part => part.type === 'decimal')?.value === ',';
  } catch {
    // An invalid language tag tells us nothing.
    return undefined;
  }
}

/**
 * The whole text as a number: "1,234.5", "1.234,5", "1 234", "-3", "50%", "1e3". A single separator followed by
 * exactly three digits is a thousands separator or a decimal point depending on the page ("1,234" is 1234 in English).
 */
export function readNumber(text: string, decimalComma = false): number | undefined {
  const clean = text
    .trim()
    .replace(/[\s\u00a0\u202f']/g, '')
    .replace(/^\u2212/, '-')
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

const SUFFIX: Record<string, number> = { k: 1e3, m: 1e6, b: 1e9 };
/** A number inside running text: grouped thousands (any separator, thin spaces too), a decimal part, a k/M/B suffix. */
const NUMBER_IN_TEXT = /([+\-\u2212]?(?:\d{1,3}(?:[.,'\u00a0\u202f ]\d{3})+|\d+)(?:[.,]\d+)?)(?:\s?([kmb])\b)?/i;

/** The first number in the text ("1.2k followers", "$3.50", "1.234,5 €") and the words it was read from; undefined when there is none. */
export function findNumber(text: string, decimalComma = false): { value: number; text: string } | undefined {
  const match = NUMBER_IN_TEXT.exec(text);
  if (!match?.[1]) return undefined;
  const base = readNumber(match[1], decimalComma);
  if (base === undefined) return undefined;
  const multiplier = match[2] ? (SUFFIX[match[2].toLowerCase()] ?? 1) : 1;
  return { value: Math.round(base * multiplier * 1e6) / 1e6, text: match[0].trim() };
}
