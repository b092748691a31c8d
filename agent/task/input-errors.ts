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

/** One line per issue: `  • output_schema.title: … (line 6)`, the line when the file's text is at hand. */
export function formatZodIssues(error: z.ZodError, prefix = '', lineOf?: (path: ReadonlyArray<PropertyKey>) => number | undefined): string {
  return error.issues
    .map(issue => {
      const unknown = issue.code === 'unrecognized_keys' ? issue.keys : [];
      const path = unknown.length === 1 ? [...issue.path, unknown[0]!] : issue.path;
      const where = formatIssuePath([...(prefix ? [prefix] : []), ...path]);
      const line = lineOf?.(path);
      const detail =
        unknown.length === 1
          ? 'unknown field'
          : unknown.length
            ? `unknown field(s) ${unknown.map(k => JSON.stringify(k)).join(', ')}`
            : issue.message;
      return `  • ${where}: ${detail}${line ? ` (line ${line})` : ''}`;
    })
    .join('\n');
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
