import type { z } from 'zod';

/** Errors users can search for: each has a stable code and names the file (and row/field) that was wrong. */
export class BwaInputError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BwaInputError';
  }
}

export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(root)';
}

export function formatZodIssues(error: z.ZodError, prefix = ''): string {
  return error.issues
    .map(issue => {
      const where = formatIssuePath([...(prefix ? [prefix] : []), ...issue.path]);
      const detail = issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.map(k => JSON.stringify(k)).join(', ')}` : issue.message;
      return `  • ${where}: ${detail}`;
    })
    .join('\n');
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
