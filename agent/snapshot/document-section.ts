import { DOCUMENT_FIELDS, type DocumentFact, type DocumentField } from './document-facts';
import { formatAddress, quote, truncate } from './serialize';
import { estimateTokens } from './tokens';
import type { NumberedFact } from './types';

export type { NumberedFact } from './types';

/**
 * The page state's "document" section: what the page says about itself, one `[dN]` line per distinct value (the
 * places that say the same thing listed together), each value quoted like every page string. Printed whole on the
 * first look at a page and when the agent expands `d0`; otherwise one stub line.
 */

export const DOCUMENT_STUB_REF = 'd0';

/** How many distinct values of a field are worth a line: the section stays near 150 tokens on a busy page. */
const PER_FIELD: Record<DocumentField, number> = {
  title: 1,
  site_name: 1,
  author: 4,
  published: 2,
  modified: 1,
  time: 2,
  other: 3,
  language: 1,
  canonical: 1,
};
/** The whole section's size on the first look (issue 31: small beside the page it describes). */
export const DOCUMENT_SECTION_TOKENS = 150;
/** Characters of a value printed; the rest is read in full by `extract` of the line's ref. */
const SHOWN_CHARS: Partial<Record<DocumentField, number>> = { title: 72, site_name: 48, author: 48 };
const DEFAULT_SHOWN_CHARS = 72;
const SHOWN_WORDS_CHARS = 48;
/** A value the page state already prints elsewhere (the Title line) keeps only its start. */
const ELSEWHERE_CHARS = 24;
/**
 * Past the budget, lines leave the section (listed on its last line by ref and field, still read by `extract`):
 * a field's second and later values first, then whole fields, the ones a reader asks for least first.
 */
const LEAVES_FIRST: readonly DocumentField[] = ['language', 'canonical', 'time', 'modified', 'other', 'author', 'published', 'site_name', 'title'];
/** Places listed for one value: the first says where; "+2" that two more say the same (the read's record keeps the exact key). */
const MAX_PLACES = 1;

/** One fact per distinct value of each field, in the order a reader asks for them, numbered d1, d2, … */
export function numberFacts(facts: readonly DocumentFact[], pageUrl: string, headerTitle = ''): NumberedFact[] {
  const numbered: NumberedFact[] = [];
  for (const field of DOCUMENT_FIELDS) {
    const kept: NumberedFact[] = [];
    for (const fact of inReadingOrder(facts.filter(f => f.field === field))) {
      if (field === 'canonical' && sameAddress(fact.value, pageUrl)) continue;
      // The <title> is the header's Title line already.
      if (fact.key === 'title' && fact.source === 'meta' && normalize(fact.value) === normalize(headerTitle)) continue;
      const same =
        kept.find(k => sameValue(field, k.value, fact.value) && k.shown === fact.shown) ??
        // A <title> that is the headline plus the site's name says nothing the headline does not.
        (field === 'title' ? kept.find(k => isHeadlineAndSite(fact.value, k.value)) : undefined) ??
        // A modified time equal to the published one is no news.
        (field === 'modified' ? numbered.find(k => k.field === 'published' && sameValue('published', k.value, fact.value)) : undefined) ??
        // A meta of no known family saying what a known one says is one more place for that line.
        (field === 'other' ? numbered.find(k => sameValue('published', k.value, fact.value)) : undefined);
      if (same) same.also.push({ source: fact.source, key: fact.key });
      else if (kept.length < PER_FIELD[field]) kept.push({ ...fact, ref: '', also: [] });
    }
    numbered.push(...kept);
  }
  // A language alone says nothing the page does not show: no section for it.
  if (numbered.every(fact => fact.field === 'language')) return [];
  numbered.forEach((fact, index) => (fact.ref = `d${index + 1}`));
  return numbered;
}

/**
 * The section as the first look prints it, within DOCUMENT_SECTION_TOKENS: values shortened by field, a title the
 * Title line already shows cut to its start, and past the budget the least asked-for lines folded into one
 * "(also: [d8] canonical, …)" line; `whole` (the agent asked with `expand d0`) prints every line.
 */
export function formatDocumentSection(facts: readonly NumberedFact[], origin: string | undefined, headerTitle = '', whole = false): string {
  if (!facts.length) return '';
  const lines = facts.map(fact => formatFactLine(fact, origin, headerTitle));
  const shown = facts.map(() => true);
  const leaving = facts
    .map((fact, index) => ({ index, extra: facts.slice(0, index).some(earlier => earlier.field === fact.field) }))
    .sort((a, b) => Number(b.extra) - Number(a.extra) || rank(facts[a.index]!) - rank(facts[b.index]!) || b.index - a.index);
  const render = () => {
    const folded = facts.filter((_, index) => !shown[index]);
    return [
      `[${DOCUMENT_STUB_REF}] document:`,
      ...lines.filter((_, index) => shown[index]).map(line => ` ${line}`),
      ...(folded.length ? [` (also: ${folded.map(fact => `[${fact.ref}] ${fact.field}`).join(', ')})`] : []),
    ].join('\n');
  };
  let text = render();
  for (const { index } of leaving) {
    if (whole || estimateTokens(text) <= DOCUMENT_SECTION_TOKENS || shown.filter(Boolean).length === 1) break;
    shown[index] = false;
    text = render();
  }
  return text;
}

/** Authors given by name before those given only as a profile address or a handle ("@ada"): a name is what a reader asks for. */
function inReadingOrder(facts: readonly DocumentFact[]): DocumentFact[] {
  const byName = (fact: DocumentFact) => (fact.field === 'author' && (isAddress(fact.value) || /^@\S+$/.test(fact.value.trim())) ? 1 : 0);
  return [...facts].sort((a, b) => byName(a) - byName(b));
}

function rank(fact: NumberedFact): number {
  return LEAVES_FIRST.indexOf(fact.field);
}

function formatFactLine(fact: NumberedFact, origin: string | undefined, headerTitle: string): string {
  const where = [...new Set([fact, ...fact.also].map(placeOf))];
  const more = where.length > MAX_PLACES ? ` +${where.length - MAX_PLACES}` : '';
  const place = `(${where.slice(0, MAX_PLACES).join(', ')}${more})`;
  const value =
    fact.field === 'canonical'
      ? formatAddress(fact.value, origin)
      : fact.field === 'author' && isAddress(fact.value)
        ? `→ ${formatAddress(fact.value, origin)}`
        : fact.field === 'title' && headerTitle && normalize(headerTitle).includes(normalize(fact.value))
          ? `${JSON.stringify(truncate(fact.value, ELSEWHERE_CHARS))}${fact.value.length > ELSEWHERE_CHARS ? ' in the Title line' : ''}`
          : quote(fact.value, SHOWN_CHARS[fact.field] ?? DEFAULT_SHOWN_CHARS);
  const shows = fact.shown !== undefined && fact.shown !== fact.value ? ` shows ${quote(fact.shown, SHOWN_WORDS_CHARS)}` : '';
  return `[${fact.ref}] ${fact.field} ${value}${shows} ${place}`;
}

/** After the first look: one line naming each value's ref and field, so a read needs no expand ("[d3] author"). */
export function formatDocumentStub(facts: readonly NumberedFact[]): string {
  if (!facts.length) return '';
  return `[${DOCUMENT_STUB_REF}] document (collapsed: ${facts.map(fact => `[${fact.ref}] ${fact.field}`).join(', ')})`;
}

/** "og:site_name", "json-ld author[0].name", "<title>": short enough for a line, exact in the read's record. */
export function placeOf(fact: Pick<DocumentFact, 'source' | 'key'>): string {
  // A name found through an @id reference keeps where it pointed in the record only: "json-ld author.@id".
  if (fact.source === 'json-ld')
    return `json-ld ${fact.key
      .split(' ')[0]!
      .replace(/^\[\d+\]\.?/, '')
      .replace(/^(@graph\[\d+\]|\[\d+\])\./, '')}`;
  if (fact.key === 'title') return '<title>';
  if (fact.key === 'html lang') return '<html lang>';
  if (fact.key === 'link rel=canonical') return 'link canonical';
  if (fact.source === 'dom' && fact.key.startsWith('time[datetime]')) return '<time>';
  return fact.key;
}

/** Two spellings of one instant ("…Z", "…+0000", "…+00:00") are one value. */
function sameValue(field: DocumentField, a: string, b: string): boolean {
  if (normalize(a) === normalize(b)) return true;
  if (field !== 'published' && field !== 'modified' && field !== 'time') return false;
  const instant = (text: string) => Date.parse(text.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  const [x, y] = [instant(a), instant(b)];
  return !Number.isNaN(x) && x === y;
}

function isHeadlineAndSite(title: string, headline: string): boolean {
  const t = normalize(title);
  const h = normalize(headline);
  return t.length > h.length && t.startsWith(h) && /^\s*[-|–—:·•]/.test(t.slice(h.length));
}

function isAddress(value: string): boolean {
  return /^https?:\/\//i.test(value.trim());
}

function normalize(value: string): string {
  return value.toLowerCase().replace(/\s+/g, ' ').trim();
}

function sameAddress(a: string, b: string): boolean {
  try {
    const strip = (url: string) => new URL(url).href.replace(/[#?].*$/, '').replace(/\/$/, '');
    return strip(a) === strip(b);
  } catch {
    return false;
  }
}
