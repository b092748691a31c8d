/** Text rules shared by classification and printing: what counts as content, and how long text is shortened. */

/**
 * Content, however short: a letter, a digit, or a symbol that carries meaning (math, currency, ★, ✓).
 * Punctuation alone (`|`, `·`, `•`, `›`) is decoration.
 */
export function isMeaningfulText(value: string | undefined): boolean {
  return !!value && /[\p{L}\p{N}\p{Sm}\p{Sc}\p{So}]/u.test(value);
}

export function collapseWhitespace(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/** A file name or address where a description should be (`alt="[https://…/x.jpg]"`, `IMG_0042.JPG`): says nothing to a reader. */
export function looksLikeAddress(value: string): boolean {
  const bare = value.trim().replace(/^\[|\]$/g, '');
  return /^(https?:)?\/\/\S+$/i.test(bare) || /^[\w./-]+\.(jpe?g|png|gif|webp|svg|avif|bmp)(\?\S*)?$/i.test(bare);
}

export interface Shortened {
  text: string;
  /** Characters left out (0 when the text is whole). */
  omitted: number;
}

/**
 * A sentence ends at . ! ? … followed by a space, the end, or (on pages that glue paragraphs together,
 * "Wednesday.The") a capital after a lower-case word. An initial ("S.C.", "J. Smith") is not an end.
 */
const SENTENCE_END = /(?<!(?:^|[\s.])\p{Lu})[.!?…。！？]["'”’)\]]*(?=\s|$)|(?<=\p{Ll}{2}[.!?])(?=\p{Lu}\p{Ll})/gu;

export function sentenceEnds(value: string): number[] {
  return [...value.matchAll(SENTENCE_END)].map(match => (match.index ?? 0) + match[0].length);
}

/**
 * Long text is cut after the last whole sentence that fits in `limit` characters. When that leaves less
 * than half of it (a long first sentence), the cut goes after the next sentence if it ends within
 * `firstSentenceMax`, else at the last word boundary. A reader gets whole sentences and is told how much
 * more there is.
 */
export function shortenText(value: string, limit: number, firstSentenceMax = Math.round(limit * 1.6)): Shortened {
  if (value.length <= limit) return { text: value, omitted: 0 };
  const ends = sentenceEnds(value);
  let cut = 0;
  for (const end of ends) if (end <= limit) cut = end;
  if (cut < limit / 2) {
    const next = ends.find(end => end > cut && end <= firstSentenceMax);
    if (next !== undefined) cut = next;
  }
  if (cut < limit / 2) {
    const space = value.lastIndexOf(' ', limit);
    cut = space > limit / 2 ? space : limit;
  }
  const text = value.slice(0, cut).trimEnd();
  return { text: `${text} …`, omitted: value.length - text.length };
}

/**
 * An accessible name built from children that repeat each other — a hidden SVG <title> "The Verge" before the
 * visible "The Verge logo." gives "The VergeThe Verge logo." — is shown once: the longer of the repeats.
 * Only names that are exactly the joined children's labels are touched; a name like "Bora Bora" is its own text.
 */
export function dedupeRepeatedName(name: string, childLabels: readonly string[]): string {
  if (childLabels.length < 2) return name;
  const squash = (value: string) => value.replace(/\s+/g, '').toLowerCase();
  if (squash(childLabels.join('')) !== squash(name)) return name;
  const kept = childLabels.filter((label, index) => {
    const mine = squash(label);
    return !childLabels.some((other, otherIndex) => otherIndex !== index && squash(other).length > mine.length && squash(other).startsWith(mine));
  });
  return kept.length === childLabels.length ? name : kept.map(label => label.trim()).join(' ');
}
