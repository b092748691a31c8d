import * as fs from 'node:fs';
import { importGraph } from './import-graph';

/** A call that starts a whole Playwright run (or the bwa CLI) as a child process. */
const STARTS_A_RUN = /\b(runNested|startNested|spawn|spawnSync|execFile|execFileSync)\(/;

/**
 * Spec files under `root` that start child runs, directly or through a helper: each such test drives several
 * browsers and CPU-heavy runners at once, so the self config runs fewer of them side by side than in-process tests.
 * Read from the import graph, so a new spec that starts runs is counted without a list to keep up to date.
 */
export function runStartingSpecs(root: string): string[] {
  const graph = importGraph([root]);
  const memo = new Map<string, boolean>();
  const startsRuns = (file: string, seen: Set<string>): boolean => {
    if (memo.has(file)) return memo.get(file)!;
    if (seen.has(file)) return false;
    seen.add(file);
    // The module that defines the starters is imported for its constants too; only a call counts.
    const answer =
      STARTS_A_RUN.test(withoutComments(fs.readFileSync(file, 'utf8'))) ||
      (graph.get(file) ?? []).some(dep => !dep.endsWith('nested-run.ts') && startsRuns(dep, seen));
    memo.set(file, answer);
    return answer;
  };
  return [...graph.keys()].filter(file => file.endsWith('.spec.ts') && startsRuns(file, new Set()));
}

function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}
