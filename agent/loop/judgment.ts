import type { TaskSpec } from '../task/schema';

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
  const text = Array.isArray(descriptor) ? 'array' : typeof descriptor === 'string' ? descriptor : 'object';
  if (value === null) return /\bnull\b/.test(text) ? [] : [`${name} must not be null`];
  const range = /^(-?\d+(?:\.\d+)?)\s*-\s*(-?\d+(?:\.\d+)?)$/.exec(text.trim());
  if (range) {
    const n = typeof value === 'number' ? value : Number(value);
    return !Number.isFinite(n) || n < Number(range[1]) || n > Number(range[2]) ? [`${name} must be a number in ${text}`] : [];
  }
  if (/\barray\b/.test(text) || Array.isArray(descriptor)) return Array.isArray(value) ? [] : [`${name} must be an array`];
  if (/\|/.test(text) && !/\b(string|number|integer|null|boolean|array)\b/.test(text)) {
    const options = text.split('|').map(o => o.trim());
    return options.includes(String(value)) ? [] : [`${name} must be one of ${options.join(' / ')}`];
  }
  if (/\b(number|integer)\b/.test(text) && !/\bstring\b/.test(text) && typeof value !== 'number') return [`${name} must be a number`];
  if (/\bboolean\b/.test(text) && !/\bstring\b/.test(text) && typeof value !== 'boolean') return [`${name} must be true or false`];
  return [];
}
