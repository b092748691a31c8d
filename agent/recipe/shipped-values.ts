import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../fs/atomic';

/**
 * bwa's rules for picking an element and reading its value, copied beside every exported spec (into
 * SHIPPED_VALUES_DIR) so the spec picks and reads exactly as extract does. They may import only each other and
 * packages the project has (chrono-node, Playwright's types).
 */
export const SHIPPED_VALUE_FILES = [
  'read-field.ts',
  'locate.ts',
  'read-value.ts',
  'read-element.ts',
  'coerce.ts',
  'dates.ts',
  'relative-dates.ts',
  'numbers.ts',
] as const;
export const SHIPPED_VALUES_DIR = 'bwa-values';
const VALUES_SOURCE = path.join(__dirname, '../actions/values');

/** The value rules' sources as bwa runs them, each checked to import nothing of bwa outside the shipped set. */
export function shipValueRules(dir: string): void {
  for (const name of SHIPPED_VALUE_FILES) {
    const source = fs.readFileSync(path.join(VALUES_SOURCE, name), 'utf8');
    for (const [, from] of source.matchAll(/^\s*import\s[^'"]*['"](\.[^'"]+)['"]/gm))
      if (!(SHIPPED_VALUE_FILES as readonly string[]).includes(`${path.basename(from!)}.ts`) || path.dirname(from!) !== '.')
        throw new Error(`agent/actions/values/${name} imports ${from}: the value rules shipped with exported specs may import only each other`);
    writeFileAtomic(path.join(dir, name), source);
  }
}
