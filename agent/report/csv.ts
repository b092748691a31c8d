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

/**
 * A cell of combined.csv: a number stays a number (csv-stringify writes it as is, a negative one too); anything else
 * is text, which `escape_formulas` neutralises when it would start a formula.
 */
function csvCell(value: unknown): string | number {
  return typeof value === 'number' && Number.isFinite(value) ? value : cellValue(value);
}

/**
 * One row per sample, sorted by sample_id; a column per output field plus status, steps and artifact count. Safe to
 * open in a spreadsheet: a text cell starting with =, +, -, @, a tab or a carriage return (page text can say
 * `=HYPERLINK(…)`) gets a leading `'`, as OWASP advises against CSV injection; result.json keeps the exact value.
 */
export function combinedCsv(results: readonly Result[]): string {
  const sorted = [...results].sort((a, b) => (a.sample_id < b.sample_id ? -1 : a.sample_id > b.sample_id ? 1 : 0));
  const fields = outputColumns(sorted);
  const withJudgment = sorted.some(r => r.judgment);
  const header = ['sample_id', 'status', ...fields, ...(withJudgment ? ['judgment'] : []), 'steps', 'artifacts', 'error'];
  const rows = sorted.map(r => [
    r.sample_id,
    r.status,
    ...fields.map(f => csvCell(r.extracted[f]?.value)),
    ...(withJudgment ? [cellValue(r.judgment)] : []),
    r.steps,
    r.artifacts.length,
    r.error ?? '',
  ]);
  return stringify([header, ...rows], { escape_formulas: true });
}
