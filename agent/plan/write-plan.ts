import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../fs/atomic';
import { BwaInputError } from '../task/input-errors';
import { loadTaskFile } from '../task/load-task';
import { loadSamplesCsv } from '../task/samples';
import { JSON_SCHEMA_FILE } from '../task/write-json-schema';
import { samplesCsvText } from '../discover/samples-csv';
import type { ValidPlan } from './validate-plan';
import { BWA_PROJECTS } from '../project/names';

export interface WrittenPlan {
  taskFile: string;
  /** Absent when the samples are discovered at run time. */
  samplesFile?: string;
  taskJson: string;
  samplesCsv?: string;
}

const PREVIEW_ROWS = 20;

/** tasks/<id>.json (+ tasks/inputs/<id>.csv), never over an existing task unless forced; both re-read as the tests will. */
export function writePlan(plan: ValidPlan, tasksDir: string, options: { force?: boolean } = {}): WrittenPlan {
  const id = plan.spec.task_id;
  const taskFile = path.join(tasksDir, `${id}.json`);
  const samplesFile = plan.needsDiscovery ? undefined : path.join(tasksDir, 'inputs', `${id}.csv`);
  const existing = [taskFile, samplesFile].filter((f): f is string => f !== undefined && fs.existsSync(f));
  if (existing.length && !options.force)
    throw new BwaInputError(
      'BWA_PLAN_EXISTS',
      `${existing.join(' and ')} already exist${existing.length === 1 ? 's' : ''}: not overwritten (use --force to replace, or rename the task)`,
    );
  const schemaRef = path.relative(tasksDir, JSON_SCHEMA_FILE).split(path.sep).join('/');
  const taskJson = `${readableJson({ $schema: schemaRef.startsWith('.') ? schemaRef : `./${schemaRef}`, ...plan.task })}\n`;
  const samplesCsv = samplesFile ? samplesCsvText(plan.columns, plan.samples) : undefined;
  writeFileAtomic(taskFile, taskJson);
  if (samplesFile && samplesCsv) writeFileAtomic(samplesFile, samplesCsv);
  const loaded = loadTaskFile(taskFile);
  if (samplesFile) loadSamplesCsv(loaded.spec, samplesFile);
  return { taskFile, samplesFile, taskJson, samplesCsv };
}

/** What the user reviews: both files as written, then how to run them. */
export function describePlan(plan: ValidPlan, written: WrittenPlan, attempts: number): string {
  const id = plan.spec.task_id;
  const lines = [
    `Wrote ${written.taskFile}${attempts > 1 ? ' (the first plan was refused by the schema check and corrected)' : ''}:`,
    '',
    written.taskJson.trimEnd(),
    '',
  ];
  if (written.samplesFile && written.samplesCsv) {
    const rows = written.samplesCsv.trimEnd().split('\n');
    const more = rows.length - 1 - PREVIEW_ROWS;
    lines.push(
      `Wrote ${written.samplesFile} (${plan.samples.length} sample(s)):`,
      '',
      ...rows.slice(0, PREVIEW_ROWS + 1),
      ...(more > 0 ? [`… ${more} more`] : []),
      '',
    );
  } else if (plan.spec.discover) {
    const d = plan.spec.discover;
    lines.push(
      `Samples: discovered at run time from ${d.start_url} (${d.item}; up to ${d.max_items}).`,
      `  Preview them with: npx bwa discover ${id}`,
      '',
    );
  }
  if (plan.notes) lines.push(`Planner notes: ${plan.notes}`, '');
  lines.push('Review the files, then run:', `  npx playwright test --project=${BWA_PROJECTS.tasks} --grep @${id}`);
  return lines.join('\n');
}

const INLINE_WIDTH = 100;

/** Two-space JSON as people write task files: short arrays and objects stay on one line. */
export function readableJson(value: unknown, indent = ''): string {
  const inline = inlineJson(value);
  if (value === null || typeof value !== 'object' || inline.length + indent.length <= INLINE_WIDTH) return inline;
  const inner = `${indent}  `;
  if (Array.isArray(value)) return `[\n${value.map(v => inner + readableJson(v, inner)).join(',\n')}\n${indent}]`;
  return `{\n${Object.entries(value)
    .map(([k, v]) => `${inner}${JSON.stringify(k)}: ${readableJson(v, inner)}`)
    .join(',\n')}\n${indent}}`;
}

function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${inlineJson(v)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return JSON.stringify(value) ?? 'null';
}
