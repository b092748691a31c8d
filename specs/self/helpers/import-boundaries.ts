import * as path from 'node:path';
import type { ImportGraph } from './import-graph';

export interface BoundaryRules {
  readonly [part: string]: { readonly may: readonly string[]; readonly files?: Readonly<Record<string, string>> };
}

/** The part of agent/ a file belongs to: its top folder, or its name for a file at the top (settings.ts → settings). */
export function partOf(root: string, file: string): string | undefined {
  const relative = path.relative(root, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const [first, ...rest] = relative.split(path.sep);
  return rest.length ? first : first!.replace(/\.ts$/, '');
}

/**
 * Every import of a file under `root` that its part's rule does not allow, as one line naming the file, the import
 * and the rule: an import of another part not in its `may` list (nor one of its `files`), an import from outside
 * `root`, and a file of a part the rules do not know.
 */
export function boundaryViolations(graph: ImportGraph, root: string, rules: BoundaryRules, rulesFile: string): string[] {
  const name = (file: string) => path.relative(path.dirname(root), file);
  const violations: string[] = [];
  for (const [file, imports] of graph) {
    const part = partOf(root, file);
    if (part === undefined) continue;
    const rule = rules[part];
    if (!rule) {
      violations.push(`${name(file)}: "${part}" has no rule in ${rulesFile} — add one saying what it may import`);
      continue;
    }
    for (const target of imports) {
      const targetPart = partOf(root, target);
      if (targetPart === part) continue;
      if (targetPart === undefined) {
        violations.push(
          `${name(file)} imports ${path.relative(process.cwd(), target)}: agent/ imports nothing outside agent/ (rule in ${rulesFile})`,
        );
        continue;
      }
      if (rule.may.includes(targetPart) || rule.files?.[path.relative(root, target)]) continue;
      const allowed = rule.may.length ? rule.may.join(', ') : 'nothing else of ours';
      violations.push(`${name(file)} imports ${name(target)}: ${part} may import ${allowed} (rule "${part}" in ${rulesFile})`);
    }
  }
  return violations;
}

/**
 * Parts whose rules allow each other, around a loop: a layering needs none. A file a rule allows (`files`) counts as
 * its whole part, unless it is one of `leaves` (files that import nothing of ours, so no loop can pass through them).
 */
export function ruleCycles(rules: BoundaryRules, leaves: ReadonlySet<string> = new Set()): string[][] {
  const edges = (part: string) => {
    const rule = rules[part];
    const throughFiles = Object.keys(rule?.files ?? {}).filter(file => !leaves.has(file));
    return [...new Set([...(rule?.may ?? []), ...throughFiles.map(file => file.split('/')[0]!.replace(/\.ts$/, ''))])];
  };
  const cycles: string[][] = [];
  const visit = (part: string, trail: string[]) => {
    for (const next of edges(part)) {
      const at = trail.indexOf(next);
      if (at >= 0) cycles.push([...trail.slice(at), next]);
      else visit(next, [...trail, next]);
    }
  };
  for (const part of Object.keys(rules)) visit(part, [part]);
  return cycles;
}

/** The files under `root` (relative to it) that import nothing else under it. */
export function leafFiles(graph: ImportGraph, root: string): Set<string> {
  const inside = (file: string) => partOf(root, file) !== undefined;
  return new Set([...graph].filter(([file, imports]) => inside(file) && !imports.some(inside)).map(([file]) => path.relative(root, file)));
}
