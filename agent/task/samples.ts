import * as fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { BwaInputError } from './input-errors';
import type { TaskSpec } from './schema';
import { onlyOf, parseType } from './type-grammar';

export interface Sample {
  sample_id: string;
  /** Every column of the row, sample_id included, as written in the CSV. */
  row: Record<string, string>;
  /** 1-based line in the source file (the header is line 1); 0 for samples not from a file. */
  line: number;
  source: string;
}

export const SAMPLE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
/** Columns the discovery phase adds to every row it writes. */
export const DISCOVERY_COLUMNS = ['discovered_from', 'discovered_page', 'discovered_at'] as const;
const MAX_REPORTED_ERRORS = 20;

export function checkSampleId(id: string): string | undefined {
  if (id.length === 0) return 'is empty';
  if (id.includes('\0')) return 'contains a NUL character';
  if (id.length > 100) return `is ${id.length} characters long (at most 100)`;
  if (id.includes('/') || id.includes('\\') || id.includes('..')) return `"${printable(id)}" contains a path separator or ".." (it names a folder)`;
  if (!SAMPLE_ID_PATTERN.test(id)) return `"${printable(id)}" may only contain letters, digits, ".", "_" and "-", starting with a letter or digit`;
  return undefined;
}

export function loadSamplesCsv(task: TaskSpec, file: string): Sample[] {
  // A row added in another editor may end its line differently (LF in a CRLF file): each line is a row, as a person sees it.
  const text = decodeUtf8(file).replace(/\r\n?/g, '\n');
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, info: true, skip_empty_lines: true, relax_column_count: false }) as unknown as typeof records;
  } catch (error) {
    const err = error as Error & { lines?: number };
    throw new BwaInputError('BWA_CSV_PARSE', `${file}${err.lines ? `: line ${err.lines}` : ''}: ${err.message}`);
  }
  const [header, ...rows] = records;
  if (!header) throw new BwaInputError('BWA_CSV_EMPTY', `${file}: the file is empty (expected a header row with sample_id${listColumns(task)})`);
  const columns = header.record.map(c => c.trim());
  checkHeader(task, file, columns);
  if (rows.length === 0) throw new BwaInputError('BWA_CSV_EMPTY', `${file}: no sample rows after the header`);

  const errors: string[] = [];
  // By id folded to lower case: "Ada" and "ada" would share one folder on a case-insensitive file system (macOS, Windows).
  const seen = new Map<string, { id: string; line: number }>();
  const samples: Sample[] = [];
  let previousEnd = header.info.lines;
  for (const { record, info } of rows) {
    // csv-parse reports the line a record ends on; a quoted newline makes a record span lines.
    const line = previousEnd + 1;
    previousEnd = info.lines;
    const row = Object.fromEntries(columns.map((c, i) => [c, record[i] ?? ''])) as Record<string, string>;
    const id = (row.sample_id ?? '').trim();
    const idProblem = checkSampleId(id);
    if (idProblem) errors.push(`line ${line}, column sample_id: ${idProblem}`);
    else {
      const first = seen.get(id.toLowerCase());
      if (!first) seen.set(id.toLowerCase(), { id, line });
      else if (first.id === id) errors.push(`line ${line}, column sample_id: duplicate "${id}" (first on line ${first.line})`);
      else
        errors.push(
          `line ${line}, column sample_id: "${id}" differs from "${first.id}" (line ${first.line}) only in case — they would share one evidence folder on a case-insensitive file system; rename one`,
        );
    }
    errors.push(...checkValues(task, row, line));
    samples.push({ sample_id: id, row: { ...row, sample_id: id }, line, source: file });
  }
  if (errors.length > 0) {
    const shown = errors
      .slice(0, MAX_REPORTED_ERRORS)
      .map(e => `  • ${e}`)
      .join('\n');
    const more = errors.length > MAX_REPORTED_ERRORS ? `\n  … and ${errors.length - MAX_REPORTED_ERRORS} more` : '';
    throw new BwaInputError('BWA_CSV_ROWS', `${file}: ${errors.length} invalid row value(s)\n${shown}${more}`);
  }
  return samples;
}

function decodeUtf8(file: string): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new BwaInputError('BWA_CSV_READ', `${file}: cannot read (${(error as Error).message})`);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8Offset(bytes);
    const line = bytes.subarray(0, offset).toString('latin1').split('\n').length;
    throw new BwaInputError(
      'BWA_CSV_ENCODING',
      `${file}: line ${line}: not valid UTF-8 (byte 0x${bytes[offset]?.toString(16)} at offset ${offset}); save the file as UTF-8`,
    );
  }
}

function firstInvalidUtf8Offset(bytes: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lo = 0;
  let hi = bytes.length;
  // Binary search for the shortest prefix that fails to decode (a cut mid-character also fails, hence stream:true).
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    try {
      decoder.decode(bytes.subarray(0, mid + 1), { stream: true });
      decoder.decode();
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  return lo;
}

function checkHeader(task: TaskSpec, file: string, columns: string[]): void {
  const problems: string[] = [];
  const duplicates = columns.filter((c, i) => columns.indexOf(c) !== i);
  if (duplicates.length) problems.push(`duplicate column(s) ${duplicates.join(', ')}`);
  if (!columns.includes('sample_id')) problems.push('missing column sample_id');
  const declared = new Set(Object.keys(task.input_schema));
  const missing = [...declared].filter(c => !columns.includes(c));
  if (missing.length) problems.push(`missing column(s) ${missing.join(', ')} (declared in input_schema of task ${task.task_id})`);
  const allowed = new Set<string>(['sample_id', ...declared, ...DISCOVERY_COLUMNS]);
  const extra = columns.filter(c => !allowed.has(c));
  if (extra.length) problems.push(`unknown column(s) ${extra.join(', ')} (declare them in input_schema of task ${task.task_id})`);
  if (problems.length) throw new BwaInputError('BWA_CSV_HEADER', `${file}: line 1 (header): ${problems.join('; ')}`);
}

function checkValues(task: TaskSpec, row: Record<string, string>, line: number): string[] {
  const errors: string[] = [];
  for (const [column, descriptor] of Object.entries(task.input_schema)) {
    const type = typeof descriptor === 'string' ? descriptor : 'string';
    const value = row[column] ?? '';
    if (value === placeholderFor(column)) {
      errors.push(`line ${line}, column ${column}: "${value}" is the placeholder bwa init wrote — put this sample's value there (or delete the row)`);
      continue;
    }
    const parsed = parseType(type);
    if (value.trim() === '') {
      if (!parsed.nullable) errors.push(`line ${line}, column ${column}: empty (expected ${type})`);
      continue;
    }
    if (onlyOf(parsed, 'number', 'integer') && !Number.isFinite(Number(value.replace(/,/g, ''))))
      errors.push(`line ${line}, column ${column}: "${printable(value)}" is not a number`);
    if (onlyOf(parsed, 'url') && !/^https?:\/\//.test(value))
      errors.push(`line ${line}, column ${column}: "${printable(value)}" is not an http(s) URL`);
  }
  return errors;
}

/** What `bwa init` writes in its example row for a column, for the user to replace. */
export function placeholderFor(column: string): string {
  return `<${column}>`;
}

function listColumns(task: TaskSpec): string {
  const cols = Object.keys(task.input_schema);
  return cols.length ? `, ${cols.join(', ')}` : '';
}

function printable(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]/g, c => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).slice(0, 120);
}
