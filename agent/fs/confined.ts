import * as fs from 'node:fs';
import * as path from 'node:path';

/** Characters no segment of a path bwa writes may hold: separators of any system, a drive colon, control characters. */
const UNSAFE_SEGMENT_CHARS = /[\u0000-\u001f\u007f\\:]/;

/** Why one name (a file name from a record, an attachment name) cannot be a single path segment, or undefined. */
export function unsafeSegment(name: string): string | undefined {
  if (name === '' || name === '.' || name === '..') return `"${name}" is not a file name`;
  if (name.includes('/')) return `"${printable(name)}" holds a "/"`;
  if (UNSAFE_SEGMENT_CHARS.test(name)) return `"${printable(name)}" holds a control character, "\\" or ":"`;
  return undefined;
}

/**
 * Where a '/'-separated relative path from a record lands inside root, or why it may not: a segment that is empty,
 * "..", absolute or unsafe, or a symbolic link met on the way (a link could lead a write or a read out of root).
 * Records from other machines (merged shard reports) are untrusted input: every path bwa writes from them passes here.
 */
export function confinedPath(root: string, relative: string): { path: string } | { problem: string } {
  const segments = relative.split('/');
  for (const segment of segments) {
    const unsafe = unsafeSegment(segment);
    if (unsafe) return { problem: `${printable(relative)}: leaves the run folder or is not a plain path (${unsafe})` };
  }
  let at = path.resolve(root);
  for (const segment of segments) {
    at = path.join(at, segment);
    let link: boolean;
    try {
      link = fs.lstatSync(at).isSymbolicLink();
    } catch {
      // Nothing there yet (it is about to be written): nothing further down exists either.
      break;
    }
    if (link)
      return {
        problem: `${printable(relative)}: ${path.relative(root, at).split(path.sep).join('/')} is a symbolic link (it could lead out of the run folder)`,
      };
  }
  return { path: path.join(path.resolve(root), ...segments) };
}

function printable(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
