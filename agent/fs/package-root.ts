import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The bwa checkout (the folder with its package.json): the same whether this file runs from agent/ (tsx,
 * Playwright) or from the build in dist/agent/, which is one folder deeper.
 */
export const PACKAGE_ROOT = packageRootAbove(__dirname);

function packageRootAbove(dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    if (fs.existsSync(path.join(at, 'package.json'))) return at;
    if (path.dirname(at) === at) throw new Error(`no package.json above ${dir}`);
  }
}
