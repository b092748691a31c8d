import { placeholderPattern, secretPlaceholder } from '../secrets/placeholders';
import type { SecretMasker } from '../secrets/masker';
import { Result, RESULT_IDENTIFIERS } from './result-schema';

/** The value with its secrets masked — a number that is one (a PIN read as 1234) too, which becomes the masked text. */
function maskedValue(value: unknown, masker: SecretMasker): unknown {
  if (typeof value === 'number' && masker.namesIn(String(value)).length) return masker.text(String(value));
  if (Array.isArray(value)) return value.map(item => maskedValue(item, masker));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskedValue(v, masker)]));
  return typeof value === 'string' ? masker.text(value) : value;
}

/** Secret names whose placeholder the value holds. */
function placeholdersHeld(value: unknown): string[] {
  const text = JSON.stringify(value) ?? '';
  return [...new Set([...text.matchAll(placeholderPattern())].filter(m => m[1] === 'secret').map(m => m[2]!))];
}

export const maskedFieldNote = (field: string, names: readonly string[]): string =>
  `${field}: the value read held ${names.map(secretPlaceholder).join(', ')} — kept masked in the evidence, not passed off as a value; check it on the page`;

/**
 * result.json as it may leave the process: every string of page data masked (identifiers left alone), then
 * validated. A field whose value held a secret keeps the mask — never a corrupted number or text passed off as
 * read — and the sample goes to review, the field named. Masking a masked result again changes nothing.
 */
export function maskResult(result: Result, masker: SecretMasker): Result {
  const masked = masker.value(result, RESULT_IDENTIFIERS);
  const notes = [...masked.notes];
  const extracted = { ...masked.extracted };
  let held = false;
  for (const [field, entry] of Object.entries(result.extracted)) {
    const value = maskedValue(entry.value, masker);
    const names = placeholdersHeld(value);
    if (names.length === 0) continue;
    held = true;
    extracted[field] = { ...extracted[field]!, value };
    const note = maskedFieldNote(field, names);
    if (!notes.includes(note)) notes.push(note);
  }
  const status = held && (masked.status === 'done' || masked.status === 'partial_success') ? 'needs_review' : masked.status;
  return Result.parse({ ...masked, extracted, notes, status });
}
