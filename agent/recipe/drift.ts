import type { Result } from '../evidence/result-schema';
import { shapeOf } from './patterns';

/**
 * Drift: the same steps on every sample should give the same fields in the same format. A field the first
 * samples of a task all had that comes out empty (or in another shape) for more than a fifth of the rest — and for
 * at least two of them: one profile without a company is data, not drift — means the pages changed under the
 * recipe, or a selector only ever fit the first ones.
 */

export interface DriftFinding {
  task_id: string;
  field: string;
  kind: 'empty' | 'format';
  /** Samples after the baseline where the field was empty / in another format. */
  count: number;
  of: number;
  /** The baseline's format, e.g. "number" or "string:iso-date". */
  expected?: string;
  message: string;
}

const BASELINE = 3;
const THRESHOLD = 0.2;
const MIN_LATER = 3;
const MIN_COUNT = 2;

const isEmpty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** "number", "array", "string:iso-date" …: what a reviewer would call the value's format. */
export function formatOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string') return `string:${shapeOf([value]).name}`;
  return typeof value;
}

export function detectDrift(results: readonly Result[]): DriftFinding[] {
  const byTask = new Map<string, Result[]>();
  for (const result of results) byTask.set(result.task_id, [...(byTask.get(result.task_id) ?? []), result]);
  const findings: DriftFinding[] = [];
  for (const [taskId, taskResults] of byTask) {
    const ordered = [...taskResults].sort((a, b) => a.started_at.localeCompare(b.started_at) || a.sample_id.localeCompare(b.sample_id));
    const baseline = ordered.slice(0, BASELINE);
    const later = ordered.slice(BASELINE);
    if (later.length < MIN_LATER) continue;
    const fields = new Set(baseline.flatMap(r => r.output_fields));
    for (const field of fields) {
      const firstValues = baseline.map(r => r.extracted[field]?.value);
      if (firstValues.some(isEmpty)) continue;
      const values = later.map(r => r.extracted[field]?.value);
      const empty = values.filter(isEmpty).length;
      if (empty >= MIN_COUNT && empty / later.length > THRESHOLD) {
        findings.push({
          task_id: taskId,
          field,
          kind: 'empty',
          count: empty,
          of: later.length,
          message: `${taskId}.${field} is empty in ${empty} of the ${later.length} samples after the first ${baseline.length}, which all had it`,
        });
        continue;
      }
      const formats = new Set(firstValues.map(formatOf));
      if (formats.size !== 1) continue;
      const [expected] = formats;
      const other = values.filter(v => !isEmpty(v) && formatOf(v) !== expected).length;
      if (other >= MIN_COUNT && other / later.length > THRESHOLD)
        findings.push({
          task_id: taskId,
          field,
          kind: 'format',
          count: other,
          of: later.length,
          expected,
          message: `${taskId}.${field} is not ${expected} in ${other} of the ${later.length} samples after the first ${baseline.length}`,
        });
    }
  }
  return findings;
}
