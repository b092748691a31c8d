import * as path from 'node:path';
import { PACKAGE_ROOT } from './package-root';

/**
 * A page of bwa's docs as a reader in `from` reaches it: `docs/task-spec.md` in bwa's checkout,
 * `node_modules/bwa/docs/task-spec.md` in a project that installed it.
 */
export function docPath(page: string, from = process.cwd()): string {
  return path.relative(from, path.join(PACKAGE_ROOT, page)).split(path.sep).join('/');
}
