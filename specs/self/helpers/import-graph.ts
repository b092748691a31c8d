import * as fs from 'node:fs';
import * as path from 'node:path';

/** file → the project files it imports (type-only imports count: a cycle of types is still two modules that need each other). */
export type ImportGraph = Map<string, string[]>;

// Statement-level only (`import … from`, `export … from`, side-effect `import '…'`), so text in comments and strings is
// not read as an import; `import('…')` also covers `typeof import('…')`.
const STATIC_IMPORT = /^\s*(?:(?:import|export)\s[^'"`;]*?\bfrom|import)\s*['"]([^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Every .ts file under the given folders (node_modules and dot-folders left out) with its relative imports resolved. */
export function importGraph(roots: readonly string[]): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of roots.flatMap(root => tsFiles(path.resolve(root)))) {
    const source = fs.readFileSync(file, 'utf8');
    const specifiers = [...source.matchAll(STATIC_IMPORT), ...source.matchAll(DYNAMIC_IMPORT)].map(match => match[1]!);
    const imports = specifiers
      .filter(s => s.startsWith('.'))
      .map(s => resolveTs(file, s))
      .filter((f): f is string => f !== undefined);
    graph.set(file, [...new Set(imports)]);
  }
  return graph;
}

/** Each set of files that import one another (strongly connected components of two or more, or a file importing itself). */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    lowLink.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(next)!));
      } else if (onStack.has(next)) lowLink.set(file, Math.min(lowLink.get(file)!, index.get(next)!));
    }
    if (lowLink.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.includes(file)) cycles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function resolveTs(from: string, specifier: string): string | undefined {
  const target = path.resolve(path.dirname(from), specifier);
  return [target, `${target}.ts`, path.join(target, 'index.ts')].find(candidate => candidate.endsWith('.ts') && fs.existsSync(candidate));
}
