import type { TaskSpec } from '../task/schema';
import { onlyOf, parseType } from '../task/type-grammar';

/**
 * Checks a judgment against judgment_output_schema: every key present, enumerations like "yes | no | inconclusive"
 * respected, numbers where "0.0-1.0" or "number" is asked, arrays where "array" is asked. Returns problems.
 */
export function judgmentProblems(task: TaskSpec, judgment: Record<string, unknown> | undefined): string[] {
  const schema = task.judgment_output_schema;
  if (!task.judgment_required || !schema) return [];
  if (!judgment) return [`a judgment is required: answer "${task.judgment_question}" with ${JSON.stringify(schema)}`];
  const problems: string[] = [];
  for (const [key, descriptor] of Object.entries(schema)) {
    const value = judgment[key];
    if (value === undefined || value === null || value === '') problems.push(`judgment.${key} is missing`);
    else problems.push(...valueProblems(`judgment.${key}`, descriptor, value));
  }
  return problems;
}

/** What is wrong with one value for a descriptor of the task's schema ("yes | no", "0.0-1.0", "array", "number"). */
export function valueProblems(name: string, descriptor: unknown, value: unknown): string[] {
  const type = parseType(descriptor);
  if (value === null) return type.nullable ? [] : [`${name} must not be null`];
  if (type.range) {
    const n = typeof value === 'number' ? value : Number(value);
    const { min, max } = type.range;
    return !Number.isFinite(n) || n < min || n > max ? [`${name} must be a number in ${String(descriptor)}`] : [];
  }
  if (type.values) return type.values.includes(String(value)) ? [] : [`${name} must be one of ${type.values.join(' / ')}`];
  if (onlyOf(type, 'array')) return Array.isArray(value) ? [] : [`${name} must be an array`];
  if (onlyOf(type, 'number', 'integer') && typeof value !== 'number') return [`${name} must be a number`];
  if (onlyOf(type, 'boolean') && typeof value !== 'boolean') return [`${name} must be true or false`];
  return [];
}
