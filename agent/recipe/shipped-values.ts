import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeFileAtomic } from '../fs/atomic';
import { PACKAGE_ROOT } from '../fs/package-root';

/**
 * bwa's rules for picking an element and reading its value, copied beside every exported spec (into
 * SHIPPED_VALUES_DIR) so the spec picks and reads exactly as extract does, what a page says about itself exactly
 * as a document read finds it, and types a secret as bwa does: only on its sites, never as a recorded argument.
 * Each by the folder of agent/ it lives in; shipped side by side, so they may import only each other and packages
 * the project has (chrono-node, zod, Playwright's types, node:crypto).
 */
export const SHIPPED_SOURCES = {
  'read-field.ts': 'actions/values',
  'locate.ts': 'actions/values',
  'read-value.ts': 'actions/values',
  'read-element.ts': 'actions/values',
  'coerce.ts': 'actions/values',
  'dates.ts': 'actions/values',
  'relative-dates.ts': 'actions/values',
  'numbers.ts': 'actions/values',
  'document-facts.ts': 'snapshot',
  'secret-fill.ts': 'actions/fields',
  'domains.ts': 'browser',
} as const;
export const SHIPPED_VALUE_FILES = Object.keys(SHIPPED_SOURCES) as Array<keyof typeof SHIPPED_SOURCES>;
export const SHIPPED_VALUES_DIR = 'bwa-values';

/**
 * The value rules' sources as bwa runs them (the TypeScript in the checkout, also when bwa runs from its build),
 * each checked to import nothing of bwa outside the shipped set.
 */
export function shipValueRules(dir: string): void {
  for (const name of SHIPPED_VALUE_FILES) {
    const where = `agent/${SHIPPED_SOURCES[name]}/${name}`;
    const source = fs.readFileSync(path.join(PACKAGE_ROOT, where), 'utf8');
    for (const [, from] of source.matchAll(/^\s*import\s[^'"]*['"](\.[^'"]+)['"]/gm))
      if (!(SHIPPED_VALUE_FILES as readonly string[]).includes(`${path.basename(from!)}.ts`) || path.dirname(from!) !== '.')
        throw new Error(`${where} imports ${from}: the value rules shipped with exported specs may import only each other`);
    writeFileAtomic(path.join(dir, name), source);
  }
}
