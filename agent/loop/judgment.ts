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
    if (value === undefined || value === null || value === '') {
      problems.push(`judgment.${key} is missing`);
      continue;
    }
    const text = Array.isArray(descriptor) ? 'array' : typeof descriptor === 'string' ? descriptor : 'object';
    const range = /^(-?\d+(?:\.\d+)?)\s*-\s*(-?\d+(?:\.\d+)?)$/.exec(text.trim());
    if (range) {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(n) || n < Number(range[1]) || n > Number(range[2])) problems.push(`judgment.${key} must be a number in ${text}`);
    } else if (/\barray\b/.test(text) || Array.isArray(descriptor)) {
      if (!Array.isArray(value)) problems.push(`judgment.${key} must be an array`);
    } else if (/\|/.test(text) && !/\b(string|number|null|boolean)\b/.test(text)) {
      const options = text.split('|').map(o => o.trim());
      if (!options.includes(String(value))) problems.push(`judgment.${key} must be one of ${options.join(' / ')}`);
    } else if (/\bnumber\b/.test(text) && typeof value !== 'number') problems.push(`judgment.${key} must be a number`);
  }
  return problems;
}
