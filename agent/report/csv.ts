import { stringify } from 'csv-stringify/sync';
import type { Result } from '../evidence/result-schema';

export function cellValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function outputColumns(results: readonly Result[]): string[] {
  const columns: string[] = [];
  for (const result of results) for (const field of result.output_fields) if (!columns.includes(field)) columns.push(field);
  return columns;
}

/** One row per sample, sorted by sample_id; a column per output field plus status, steps and artifact count. */
export function combinedCsv(results: readonly Result[]): string {
  const sorted = [...results].sort((a, b) => (a.sample_id < b.sample_id ? -1 : a.sample_id > b.sample_id ? 1 : 0));
  const fields = outputColumns(sorted);
  const withJudgment = sorted.some(r => r.judgment);
  const header = ['sample_id', 'status', ...fields, ...(withJudgment ? ['judgment'] : []), 'steps', 'artifacts', 'error'];
  const rows = sorted.map(r => [
    r.sample_id,
    r.status,
    ...fields.map(f => cellValue(r.extracted[f]?.value)),
    ...(withJudgment ? [cellValue(r.judgment)] : []),
    String(r.steps),
    String(r.artifacts.length),
    r.error ?? '',
  ]);
  return stringify([header, ...rows]);
}
