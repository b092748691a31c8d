import { expect, test } from '@playwright/test';
import type { ExtractedField, FieldRead, Provenance } from '../../../agent/evidence/result-schema';
import { withDisagreements } from '../../../agent/loop/disagreements';
import { addRead, disagreementsForReview, valuesAgree } from '../../../agent/loop/field-reads';

/** Several reads of one field: every read recorded, a disagreement between places settled by a rule, never by the last read. */

const AT = '2024-05-10T12:00:00.000Z';
const shown = (value: unknown, step: number): FieldRead => ({
  value,
  provenance: { source: 'dom', locator: 'css=.dateline', step, at: AT } satisfies Provenance,
});
const said = (value: unknown, step: number): FieldRead => ({
  value,
  provenance: { source: 'meta', key: 'article:published_time', step, at: AT } satisfies Provenance,
});
const first = (read: FieldRead): ExtractedField => ({ value: read.value, provenance: read.provenance });

test('reads from two places that disagree: both recorded, the first kept for review, the note names each place', () => {
  const field = addRead(first(shown('2016-06-02', 3)), said('2016-05-30', 4), 'review', 'published');
  expect(field.value).toBe('2016-06-02');
  expect(field.reads?.map(read => read.value)).toEqual(['2016-06-02', '2016-05-30']);
  expect(field.disagreement).toEqual({
    rule: 'review',
    kept: 0,
    note: 'published: the reads disagree — "2016-06-02" (dom css=.dateline, step 3) ≠ "2016-05-30" (meta article:published_time, step 4); kept the first, "2016-06-02", for a person to decide',
  });
  expect(disagreementsForReview({ published: field })).toEqual([field.disagreement!.note]);
  expect(withDisagreements({ status: 'done', error: null }, [field.disagreement!.note])).toEqual({
    status: 'needs_review',
    error: field.disagreement!.note,
  });
});

test("the task's rule settles a disagreement: page, metadata, first, last — recorded, with no review", () => {
  const base = first(said('2016-05-30', 2));
  expect(addRead(base, shown('2016-06-02', 3), 'page', 'published')).toMatchObject({ value: '2016-06-02', disagreement: { rule: 'page', kept: 1 } });
  expect(addRead(base, shown('2016-06-02', 3), 'metadata', 'published')).toMatchObject({
    value: '2016-05-30',
    disagreement: { rule: 'metadata', kept: 0 },
  });
  expect(addRead(base, shown('2016-06-02', 3), 'last', 'published').value).toBe('2016-06-02');
  const settled = addRead(base, shown('2016-06-02', 3), 'first', 'published');
  expect(settled.value).toBe('2016-05-30');
  expect(disagreementsForReview({ published: settled })).toEqual([]);
});

test('a place read again corrects itself; reads that agree are recorded without a disagreement', () => {
  const corrected = addRead(first(shown('By Jane Doe', 2)), shown('Jane Doe', 3), 'review', 'author');
  expect(corrected).toMatchObject({ value: 'Jane Doe', reads: [{ value: 'By Jane Doe' }, { value: 'Jane Doe' }] });
  expect(corrected.disagreement).toBeUndefined();
  const agreeing = addRead(first(said('2019-01-03T14:05:00+01:00', 2)), shown('2019-01-03', 3), 'review', 'published');
  expect(agreeing.disagreement).toBeUndefined();
  expect(agreeing.reads).toHaveLength(2);
  // Of two places that agree, the value that says most exactly stays: a date over a timestamp's words, a full date over a yearless one.
  expect(agreeing.value).toBe('2019-01-03');
  expect(addRead(first(said('2018-12-06', 2)), shown('--12-06', 3), 'review', 'published').value).toBe('2018-12-06');
  expect(addRead(first(said('Jane Doe', 2)), shown('By Jane Doe', 3), 'review', 'author').value).toBe('Jane Doe');
  // A place corrected after a disagreement no longer disagrees.
  const conflict = addRead(first(shown('2016-06-01', 2)), said('2016-06-02', 3), 'review', 'published');
  expect(addRead(conflict, shown('2016-06-02', 4), 'review', 'published').disagreement).toBeUndefined();
});

test('what agrees: same words, whole words inside, a date and a timestamp on it, a yearless date on that day; not a different date or name', () => {
  expect(valuesAgree('Jane  DOE', 'jane doe')).toBe(true);
  expect(valuesAgree('Jane Doe', 'By Jane Doe · 3 min read')).toBe(true);
  expect(valuesAgree('2019-01-03', '2019-01-03T14:05:00+01:00')).toBe(true);
  expect(valuesAgree(['a', 'b'], ['A', 'b'])).toBe(true);
  expect(valuesAgree('Jan', 'Janet Doe')).toBe(false);
  expect(valuesAgree('2019-01-03', '2019-01-04T01:00:00Z')).toBe(false);
  expect(valuesAgree('--12-06', '2018-12-06')).toBe(true);
  expect(valuesAgree('--12-06', '2018-12-07T16:30:00-05:00')).toBe(false);
  expect(valuesAgree(7, '7')).toBe(true);
  expect(valuesAgree(7, 8)).toBe(false);
});

test("a local time on the page and the same moment in UTC in its metadata agree, a date alone too when it is that moment's date in some zone; a day apart does not", () => {
  const local: FieldRead = {
    value: '2019-11-18',
    provenance: { source: 'dom', locator: 'css=.dateline', text: 'November 18, 2019 11:03 PM', step: 2, at: AT },
  };
  const utc: FieldRead = {
    value: '2019-11-19',
    provenance: { source: 'meta', key: 'article:published_time', preview: '2019-11-19T07:03:25+00:00', step: 2, at: AT },
  };
  expect(addRead(first(utc), local, 'review', 'published').disagreement).toBeUndefined();
  const dayLater: FieldRead = { ...utc, value: '2019-11-20', provenance: { ...utc.provenance, preview: '2019-11-20T07:03:25+00:00' } };
  expect(addRead(first(dayLater), local, 'review', 'published').disagreement?.rule).toBe('review');
  // Both zoned: one instant. A date alone: the zoned time's date somewhere on Earth.
  const zoned: FieldRead = {
    value: '2019-11-18',
    provenance: { source: 'dom', locator: 'css=.dateline', text: 'Nov 18, 2019, 11:03 pm PST', at: AT },
  };
  expect(addRead(first(utc), zoned, 'review', 'published').disagreement).toBeUndefined();
  const dateOnly: FieldRead = { value: '2019-11-18', provenance: { source: 'dom', locator: 'css=.dateline', text: 'November 18, 2019', at: AT } };
  expect(addRead(first(utc), dateOnly, 'review', 'published').disagreement).toBeUndefined();
  const twoDaysOff: FieldRead = { value: '2019-11-17', provenance: { source: 'dom', locator: 'css=.dateline', text: 'November 17, 2019', at: AT } };
  expect(addRead(first(utc), twoDaysOff, 'review', 'published').disagreement?.rule).toBe('review');
});
