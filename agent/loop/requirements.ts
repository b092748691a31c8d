import type { Artifact } from '../evidence/result-schema';
import { sanitizeLabel } from '../evidence/filenames';
import type { TaskSpec } from '../task/schema';

export interface Shortfall {
  missingFields: string[];
  missingArtifacts: string[];
  /** Set when expected_items is given and the largest collected list is shorter. */
  itemsShort?: { expected: number; got: number };
}

/** 0 and false are values; null, undefined and "" are missing. */
export const isMissing = (value: unknown): boolean => value === null || value === undefined || value === '';

export function checkRequirements(task: TaskSpec, fields: Readonly<Record<string, unknown>>, artifacts: readonly Artifact[]): Shortfall {
  const missingFields = task.required_fields.filter(field => isMissing(fields[field]));
  const labels = new Set(artifacts.map(a => sanitizeLabel(a.label ?? a.filename)));
  const missingArtifacts = task.required_artifacts.filter(label => !labels.has(sanitizeLabel(label)));
  const shortfall: Shortfall = { missingFields, missingArtifacts };
  if (task.expected_items) {
    const got = Math.max(0, ...Object.values(fields).map(v => (Array.isArray(v) ? v.length : 0)));
    if (got < task.expected_items) shortfall.itemsShort = { expected: task.expected_items, got };
  }
  return shortfall;
}

export function describeShortfall(s: Shortfall): string {
  const parts: string[] = [];
  if (s.missingFields.length) parts.push(`required fields missing: ${s.missingFields.join(', ')}`);
  if (s.missingArtifacts.length) parts.push(`required screenshots missing: ${s.missingArtifacts.join(', ')}`);
  if (s.itemsShort) parts.push(`expected ${s.itemsShort.expected} items, got ${s.itemsShort.got}`);
  return parts.join('; ');
}
