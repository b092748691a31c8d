/**
 * A page string said in words that hold on any sample's page, by replacing whole values with placeholders. The text
 * is kept as pieces: a placeholder once put in is never looked into again, so no later replacement lands inside it
 * ("<last_editor>" never becomes "<last_<first_author>>"); and a value is replaced only as a value of its own, never
 * as part of a word, an identifier or a longer number ("editor" is not in "last_editor", "92" not in "1992").
 */

interface Piece {
  text: string;
  placeholder: boolean;
}

export type Replacer = (match: string) => string | undefined;

/** Applies a global pattern to the pieces that are still text; the replacer's undefined keeps a match as it is. */
function replaceIn(pieces: readonly Piece[], pattern: RegExp, replace: Replacer): Piece[] {
  return pieces.flatMap(piece => {
    if (piece.placeholder) return [piece];
    const out: Piece[] = [];
    let last = 0;
    for (const match of piece.text.matchAll(pattern)) {
      const replacement = replace(match[0]);
      if (replacement === undefined) continue;
      out.push({ text: piece.text.slice(last, match.index), placeholder: false }, { text: replacement, placeholder: true });
      last = match.index + match[0].length;
    }
    out.push({ text: piece.text.slice(last), placeholder: false });
    return out.filter(p => p.text !== '');
  });
}

export class GeneralText {
  private pieces: Piece[];

  constructor(text: string) {
    this.pieces = [{ text, placeholder: false }];
  }

  replace(pattern: RegExp, replace: Replacer): this {
    this.pieces = replaceIn(this.pieces, pattern, replace);
    return this;
  }

  /** Runs a whole-string rewrite (one that puts in placeholders of its own) on each piece that is still text. */
  rewrite(rewrite: (text: string) => string): this {
    this.pieces = this.pieces.map(piece => (piece.placeholder ? piece : { text: rewrite(piece.text), placeholder: false }));
    return this;
  }

  /** The text that is still the page's own words (placeholders left out). */
  get remainder(): string {
    return this.pieces.map(piece => (piece.placeholder ? ' ' : piece.text)).join('');
  }

  toString(): string {
    return this.pieces.map(piece => piece.text).join('');
  }
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Any of the values as a value of its own: not inside a word or an identifier (letters, digits, `_` around it), and a
 * value ending in a digit not inside a longer number ("1234" is not in "1234.50").
 */
export function wholeValues(values: readonly string[]): RegExp | undefined {
  if (values.length === 0) return undefined;
  const alternatives = [...values]
    .sort((a, b) => b.length - a.length)
    .map(value => `(?<![\\p{L}\\p{N}_]|\\p{N}[.,])${escapeRegex(value)}(?![\\p{L}\\p{N}_]|[.,]\\p{N})`);
  return new RegExp(alternatives.join('|'), 'gu');
}

const digits = (text: string) => text.replace(/\D/g, '').length;

/**
 * What a page shows differently from sample to sample whatever the sample, each only where the text really is one:
 * an e-mail address, a web address, a date or time (with its zone), a phone number (a "+" or "(area)" number, or
 * groups of digits set apart by spaces or dashes, 7 to 15 digits, never a date or a count with thousands separators),
 * then a count or amount of two digits or more standing on its own.
 */
export const VARYING: ReadonlyArray<[RegExp, Replacer]> = [
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, () => '<email>'],
  [/\b(?:https?:\/\/|www\.)\S+/gi, () => '<address>'],
  [/\b\d{4}-\d{2}-\d{2}(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|\s?[+-]\d{2}:?\d{2})?)?(?![\w:])/g, () => '<date>'],
  [/\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b/g, () => '<date>'],
  [/(?<![+-])\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp]\.?[Mm]\.?)?(?:\s?(?:Z|UTC|GMT)?\s?[+-]\d{1,2}(?::?\d{2})?)?(?![\w:])/g, () => '<time>'],
  [/\b(?:UTC|GMT)\s?[+-]\d{1,2}(?::?\d{2})?(?![\w:])|(?<![\w:])[+-]\d{2}:\d{2}(?![\w:])/g, () => '<zone>'],
  [
    /(?<![\w+]|\d[.,])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}(?!\w|[.,]\d)/g,
    match => {
      const led = /^[+(]/.test(match);
      const grouped = /\d[\s-]\d/.test(match);
      return (led || grouped) && digits(match) >= 7 && digits(match) <= 15 ? '<phone>' : undefined;
    },
  ],
  [
    /(?<![\p{L}\p{N}_.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\p{L}\p{N}_]|[.,]\d)|(?<![\p{L}\p{N}_.,])\d{2,}(?:[.,]\d+)?(?![\p{L}\p{N}_]|[.,]\d)/gu,
    () => '<n>',
  ],
];
