import { emptyUsage, Result, type ExtractedField } from '../../../agent/evidence/result-schema';

/** The time every result a test builds carries, unless it says otherwise. */
export const RESULT_AT = '2026-01-01T00:00:00.000Z';

/**
 * A valid result.json of a done sample (task demo, sample s1, three steps, nothing extracted) with the given fields
 * changed: a test spells out only what it is about. The output fields and the row follow `extracted` and `sample_id`
 * unless given. Checked by the result schema, so no test runs on a result bwa could never have written.
 */
export function resultOf(overrides: Partial<Result> = {}): Result {
  const sampleId = overrides.sample_id ?? 's1';
  const extracted = overrides.extracted ?? {};
  return Result.parse({
    schema_version: 1,
    run_id: 'r',
    task_id: 'demo',
    sample_id: sampleId,
    status: 'done',
    attempt: 0,
    steps: 3,
    decider: 'recipe',
    input: { sample_id: sampleId },
    output_fields: Object.keys(extracted),
    extracted,
    judgment: null,
    artifacts: [],
    notes: [],
    error: null,
    started_at: RESULT_AT,
    finished_at: RESULT_AT,
    usage: emptyUsage(),
    task_hash: 'h',
    ...overrides,
  });
}

/** Extracted fields as a recipe's reads record them: each value read from an element, at `at`. */
export function readFromPage(values: Record<string, unknown>, at = RESULT_AT): Record<string, ExtractedField> {
  return Object.fromEntries(Object.entries(values).map(([field, value]) => [field, { value, provenance: { source: 'dom' as const, at } }]));
}
