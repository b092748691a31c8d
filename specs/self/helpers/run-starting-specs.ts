import * as fs from 'node:fs';
import * as path from 'node:path';

/** A call that starts a whole Playwright run (or the bwa CLI) as a child process. */
const STARTS_A_RUN = /\b(runNested|startNested|spawn|spawnSync|execFile|execFileSync)\(/;

const LOCAL_IMPORT = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * Spec files under `root` that start child runs, directly or through a helper: each such test drives several
 * browsers and CPU-heavy runners at once, so the self config runs fewer of them side by side than in-process tests.
 * Read from the import graph, so a new spec that starts runs is counted without a list to keep up to date.
 */
export function runStartingSpecs(root: string): string[] {
  const files = listTs(root);
  const memo = new Map<string, boolean>();
  const startsRuns = (file: string, seen: Set<string>): boolean => {
    if (memo.has(file)) return memo.get(file)!;
    if (seen.has(file)) return false;
    seen.add(file);
    // The module that defines the starters is imported for its constants too; only a call counts.
    const answer = STARTS_A_RUN.test(withoutComments(fs.readFileSync(file, 'utf8'))) || localImports(file).some(dep => !dep.endsWith('nested-run.ts') && startsRuns(dep, seen));
    memo.set(file, answer);
    return answer;
  };
  return files.filter(file => /\.spec\.ts$/.test(file) && !file.endsWith('nested-run.ts') && startsRuns(file, new Set()));
}

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

function localImports(file: string): string[] {
  const source = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of source.matchAll(LOCAL_IMPORT)) {
    const base = path.resolve(path.dirname(file), match[1]!);
    const candidate = [`${base}.ts`, path.join(base, 'index.ts'), base].find(p => fs.existsSync(p) && fs.statSync(p).isFile());
    if (candidate) found.push(candidate);
  }
  return found;
}

function listTs(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listTs(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}
