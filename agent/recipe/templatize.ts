/**
 * Turning one sample's concrete values back into `{{column}}` templates, and telling which strings are
 * specific to the sample (and so must not be replayed literally on another one).
 */

export interface RowValue {
  column: string;
  value: string;
}

/** Shorter values ("1", "ab") occur by chance inside unrelated text; only whole-string matches template them. */
const MIN_EMBEDDED_LENGTH = 3;

/** Input columns first (sample_id only when no column has the same value), longest value first. */
export function rowValues(row: Readonly<Record<string, string>>, inputColumns: readonly string[]): RowValue[] {
  const values: RowValue[] = [];
  const columns = [...inputColumns.filter(c => c in row), ...Object.keys(row).filter(c => !inputColumns.includes(c))];
  for (const column of columns) {
    const value = row[column];
    if (!value || values.some(v => v.value === value)) continue;
    if (column.startsWith('discovered_')) continue;
    values.push({ column, value });
  }
  return values.sort((a, b) => b.value.length - a.value.length);
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const WORD_EDGE = '[\\p{L}\\p{N}_]';

function embedded(value: string): RegExp {
  return new RegExp(`(?<!${WORD_EDGE})${escapeRegex(value)}(?!${WORD_EDGE})`, 'gu');
}

/** "http://h/people/ada" → "http://h/people/{{username}}" (the URL-encoded form is recognised too). */
export function templateString(text: string, values: readonly RowValue[]): string {
  let out = text;
  for (const { column, value } of values) {
    if (out === value) return `{{${column}}}`;
    if (value.length < MIN_EMBEDDED_LENGTH) continue;
    for (const form of new Set([value, encodeURIComponent(value)])) out = out.replace(embedded(form), `{{${column}}}`);
  }
  if (out === text) return out;
  // Next to other inputs a short value is one too ("{{start_month}} 15, {{start_year}}" → the day), if it occurs once.
  for (const { column, value } of values) {
    if (value.length >= MIN_EMBEDDED_LENGTH) continue;
    const occurrences = out.match(embedded(value)) ?? [];
    if (occurrences.length === 1) out = out.replace(embedded(value), `{{${column}}}`);
  }
  return out;
}

export function templateDeep<T>(value: T, values: readonly RowValue[]): T {
  if (typeof value === 'string') return templateString(value, values) as T;
  if (Array.isArray(value)) return value.map(v => templateDeep(v, values)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, templateDeep(v, values)])) as T;
  return value;
}

/** The text forms a value takes on a page: "1234" is shown as "1,234" too. */
export function shownForms(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value.trim()] : [];
  if (typeof value === 'number') return [...new Set([String(value), value.toLocaleString('en-US')])];
  if (Array.isArray(value)) return value.flatMap(shownForms);
  return [];
}

/**
 * A string holding one of the sample's own values — or a piece of one ("ENG-108" of the URL read from its
 * link) — would only ever match this sample.
 */
export function mentionsAny(text: string, values: readonly string[]): boolean {
  const lower = text.toLowerCase().trim();
  return values.some(v => {
    const value = v.toLowerCase();
    return (value.length >= MIN_EMBEDDED_LENGTH && lower.includes(value)) || (isPiece(lower) && value.includes(lower));
  });
}

/** A word ("Report", "Open") turns up inside values by chance; an id-like piece ("ENG-108", "maria-garcia") does not. */
function isPiece(text: string): boolean {
  return text.length >= 5 && (/\d/.test(text) || /[^\p{L}\s]/u.test(text) || text.length >= 16);
}

/**
 * The URL a step is expected to reach, generalised: the origin and path with every segment that carries a
 * sample value or looks like an identifier loosened, the query ignored.
 */
export function urlExpectation(url: string, sampleValues: readonly string[], row: readonly RowValue[]): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(parsed.protocol)) return undefined;
  const specific = [...sampleValues, ...row.map(r => r.value)];
  const segments = parsed.pathname.split('/');
  const kept: string[] = [];
  for (const [i, segment] of segments.entries()) {
    const decoded = safeDecode(segment);
    const inValue = decoded.length >= MIN_EMBEDDED_LENGTH && specific.some(v => v.toLowerCase().includes(decoded.toLowerCase()));
    const loose = (/\d/.test(decoded) && /^[\w.-]*$/.test(decoded) && !/^[a-z]+$/i.test(decoded)) || mentionsAny(decoded, specific) || inValue;
    // From the first segment that belongs to the sample on, another sample's path may be deeper or shallower.
    if (loose) return `^${escapeRegex(parsed.origin)}${kept.join('/')}/${i === segments.length - 1 ? '[^/?#]+' : '[^?#]+'}(?:[?#].*)?$`;
    kept.push(escapeRegex(segment));
  }
  return `^${escapeRegex(parsed.origin)}${kept.join('/')}(?:[?#].*)?$`;
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
