import { stringify } from 'csv-stringify/sync';
import * as fs from 'node:fs';
import { writeFileAtomic } from '../fs/atomic';
import { BwaInputError } from '../task/input-errors';
import type { LoadedTask } from '../task/load-task';
import { loadSamplesCsv } from '../task/samples';
import type { TaskSpec } from '../task/schema';
import { parseType } from '../task/type-grammar';
import { discoveredCsvColumns } from './discover-columns';
import type { DiscoveredItem } from './items';

/**
 * Writes the discovered samples where the suite loader looks for them. An item missing a value its task
 * requires is left out (and named), never written as a row that would stop the whole run at load time;
 * the file is checked with the same loader the tests use before it replaces anything.
 */
export function writeDiscoveredCsv(task: LoadedTask, items: readonly DiscoveredItem[], file: string): { dropped: string[] } {
  const spec = task.spec;
  const dropped: string[] = [];
  const rows: string[][] = [];
  for (const item of items) {
    const missing = requiredColumns(spec).filter(column => !item.values[column]);
    if (missing.length) dropped.push(`${item.url}: no value for ${missing.join(', ')}`);
    else
      rows.push([
        item.sample_id,
        ...Object.keys(spec.input_schema).map(c => item.values[c] ?? ''),
        item.discovered_from,
        String(item.discovered_page),
        item.discovered_at,
      ]);
  }
  if (rows.length === 0)
    throw new BwaInputError(
      'BWA_DISCOVER_EMPTY',
      `discovery for task ${spec.task_id}: every item lacked a required value (${dropped.slice(0, 3).join('; ')})`,
    );
  const text = stringify([discoveredCsvColumns(spec), ...rows]);
  const check = `${file}.check.csv`;
  writeFileAtomic(check, text);
  try {
    loadSamplesCsv(spec, check);
  } catch (error) {
    throw new BwaInputError(
      'BWA_DISCOVER_CSV',
      `discovery for task ${spec.task_id} produced samples the task cannot load (kept in ${check}):\n${(error as Error).message}`,
    );
  }
  fs.renameSync(check, file);
  return { dropped };
}

function requiredColumns(spec: TaskSpec): string[] {
  return Object.entries(spec.input_schema)
    .filter(([, type]) => !parseType(type).nullable)
    .map(([column]) => column);
}

export function samplesCsvText(columns: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): string {
  return stringify([columns as string[], ...rows.map(row => columns.map(c => (row[c] === undefined || row[c] === null ? '' : String(row[c]))))]);
}
