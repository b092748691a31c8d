import type { DisagreementRule, ExtractedField, FieldRead, Provenance, ReadDisagreement } from '../evidence/result-schema';
import { readDate } from '../actions/values/dates';

/**
 * A field read more than once: every read stays in the record, and reads from different places that give different
 * values are a disagreement, settled by the task's rule — never by whichever read came last. A place read again
 * (the same element or key, a better pattern) corrects its own earlier read and disagrees with nothing.
 */

/** The field as it stands after one more read: every read kept, the value chosen by the rule when places disagree. */
export function addRead(existing: ExtractedField, read: FieldRead, rule: DisagreementRule, field: string): ExtractedField {
  const reads = [...(existing.reads ?? [{ value: existing.value, provenance: existing.provenance }]), read];
  const latest = latestPerPlace(reads);
  const disagree = latest.some((a, i) => latest.slice(i + 1).some(b => !readsAgree(reads[a]!, reads[b]!)));
  if (!disagree) {
    const kept = mostPrecise(reads, latest);
    return { value: reads[kept]!.value, provenance: reads[kept]!.provenance, reads };
  }
  const kept = keptRead(reads, latest, rule);
  const disagreement: ReadDisagreement = { rule, kept, note: describeDisagreement(field, reads, latest, kept, rule) };
  return { value: reads[kept]!.value, provenance: reads[kept]!.provenance, reads, disagreement };
}

/** Fields whose reads disagree and whose rule leaves the choice to a person: what the sample's review must name. */
export function disagreementsForReview(fields: Record<string, ExtractedField>): string[] {
  return Object.values(fields).flatMap(field => (field.disagreement?.rule === 'review' ? [field.disagreement.note] : []));
}

/** Where a read looked: its source and key (a meta tag, a JSON-LD path) or its element. */
export function placeOfRead(provenance: Provenance): string {
  return `${provenance.source} ${provenance.key ?? provenance.locator ?? provenance.ref ?? ''}`.trim();
}

/** Index of the latest read of each place, in the order the places were first read (a Map keeps its first order). */
function latestPerPlace(reads: readonly FieldRead[]): number[] {
  const latest = new Map<string, number>();
  reads.forEach((read, index) => latest.set(placeOfRead(read.provenance), index));
  return [...latest.values()];
}

/**
 * Of reads that agree, the one that says most exactly: a full date over one without its year, the shorter of two
 * texts one holds ("Jane Doe" over "By Jane Doe"); otherwise the latest.
 */
function mostPrecise(reads: readonly FieldRead[], latest: readonly number[]): number {
  const rank = (value: unknown) => (typeof value !== 'string' ? 0 : /^--\d{2}-\d{2}$/.test(value) ? 1_000_000 : value.length);
  return [...latest].reverse().reduce((best, index) => (rank(reads[index]!.value) < rank(reads[best]!.value) ? index : best));
}

function keptRead(reads: readonly FieldRead[], latest: readonly number[], rule: DisagreementRule): number {
  const first = latest[0]!;
  const shown = latest.filter(index => reads[index]!.provenance.source === 'dom');
  const said = latest.filter(index => ['meta', 'json-ld'].includes(reads[index]!.provenance.source));
  switch (rule) {
    case 'review':
    case 'first':
      return first;
    case 'last':
      return latest.at(-1)!;
    case 'page':
      return shown[0] ?? first;
    case 'metadata':
      return said[0] ?? first;
  }
}

function describeDisagreement(field: string, reads: readonly FieldRead[], latest: readonly number[], kept: number, rule: DisagreementRule): string {
  const each = latest.map(index => {
    const { value, provenance } = reads[index]!;
    const step = provenance.step === undefined ? '' : `, step ${provenance.step}`;
    return `${shortValue(value)} (${placeOfRead(provenance)}${step})`;
  });
  const settled =
    rule === 'review'
      ? `kept the first, ${shortValue(reads[kept]!.value)}, for a person to decide`
      : `kept ${shortValue(reads[kept]!.value)} (rule "${rule}")`;
  return `${field}: the reads disagree — ${each.join(' ≠ ')}; ${settled}`;
}

const shortValue = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

/** Two reads say the same value, or one moment: a byline's local "11:03 PM" and its metadata's "07:03 UTC" next day. */
export function readsAgree(a: FieldRead, b: FieldRead): boolean {
  return valuesAgree(a.value, b.value) || sameMomentInAnotherZone(a.provenance, b.provenance);
}

/**
 * Words that say one moment in two zones: two times with their zones at the same instant; a time without its zone a
 * whole zone offset (at most 14 hours, in quarter hours) from a time with one; a date without a time that is the
 * zoned time's date somewhere on Earth (UTC−12 to UTC+14). The page shows its local time, its metadata UTC. Seconds aside.
 */
function sameMomentInAnotherZone(a: Provenance, b: Provenance): boolean {
  const [x, y] = [momentOf(a), momentOf(b)];
  if (!x || !y) return false;
  const instant = (moment: Moment) => moment.wall - (moment.offset ?? 0);
  if (x.offset !== undefined && y.offset !== undefined) return x.timed && y.timed && instant(x) === instant(y);
  if (x.offset === undefined && y.offset === undefined) return false;
  const [local, zoned] = x.offset === undefined ? [x, y] : [y, x];
  if (!zoned.timed) return false;
  if (!local.timed) return instant(zoned) >= local.wall - 14 * 60 && instant(zoned) < local.wall + DAY + 12 * 60;
  const difference = local.wall - instant(zoned);
  return Math.abs(difference) <= 14 * 60 && difference % 15 === 0;
}

const DAY = 24 * 60;
interface Moment {
  /** Minutes of the wall clock the words say (midnight for a date alone). */
  wall: number;
  timed: boolean;
  offset?: number;
}

/** The date (and time) a read's words say, and their zone when written. */
function momentOf(provenance: Provenance): Moment | undefined {
  const words = provenance.text ?? provenance.preview;
  const read = words ? readDate(words) : undefined;
  if (!read || read.yearNotShown || read.reading?.startsWith('relative')) return undefined;
  const { year, month, day } = read.date;
  const time = read.time ?? { hour: 0, minute: 0 };
  return { wall: Date.UTC(year, month - 1, day, time.hour, time.minute) / 60_000, timed: Boolean(read.time), offset: read.offsetMinutes };
}

/**
 * Two reads say the same: equal, or as text the same words (case and spacing aside), or one the other's whole words
 * ("Jane Doe" in "By Jane Doe"), a date and a timestamp on that date ("2019-01-03" and "2019-01-03T14:05:00+01:00"),
 * or a date without its year and a date on that month and day.
 */
export function valuesAgree(a: unknown, b: unknown): boolean {
  if (JSON.stringify(a) === JSON.stringify(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => valuesAgree(item, b[i]));
  if (Array.isArray(a) || Array.isArray(b) || a === null || b === null || typeof a === 'object' || typeof b === 'object') return false;
  const [x, y] = [normalize(String(a)), normalize(String(b))];
  if (x === y) return true;
  const [shorter, longer] = x.length <= y.length ? [x, y] : [y, x];
  // A date shown without its year ("--12-06") agrees with a full date on that month and day.
  if (/^--\d{2}-\d{2}$/.test(shorter)) return /^\d{4}-\d{2}-\d{2}/.test(longer) && longer.slice(4, 10) === shorter.slice(1);
  if (/^\d{4}-\d{2}-\d{2}$/.test(shorter)) return longer.startsWith(`${shorter}t`) || longer.startsWith(`${shorter} `);
  if (shorter.length < 3 || !/\p{L}/u.test(shorter)) return false;
  const at = longer.indexOf(shorter);
  return at >= 0 && !/[\p{L}\p{N}]/u.test(longer[at - 1] ?? '') && !/[\p{L}\p{N}]/u.test(longer[at + shorter.length] ?? '');
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}
