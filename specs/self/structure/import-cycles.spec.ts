import { expect, test } from '@playwright/test';
import * as path from 'node:path';
import { importCycles, importGraph } from '../helpers/import-graph';
import { tempDir, writeFiles } from '../helpers/temp';

const ROOTS = ['agent', 'specs', 'bench', 'fixtures'];

test('no two modules of the project import each other, directly or around a loop (type-only imports included)', () => {
  const graph = importGraph(ROOTS);
  // A graph that found next to nothing would pass vacuously: the plugin alone has hundreds of imports.
  expect(graph.size).toBeGreaterThan(400);
  expect([...graph.values()].reduce((sum, imports) => sum + imports.length, 0)).toBeGreaterThan(1500);
  const cycles = importCycles(graph).map(cycle => cycle.map(file => path.relative(process.cwd(), file)).join(' ↔ '));
  expect(cycles, 'modules that import each other: move what they share into a module both import').toEqual([]);
});

test('the check sees type-only, multi-line, re-export, side-effect and dynamic imports, and ignores imports named in comments', () => {
  const dir = tempDir('bwa-import-graph-');
  writeFiles(dir, {
    'loop/a.ts': "import type {\n  B,\n} from './b';\nexport const a = 1;\n",
    'loop/b.ts': "export * from '../c';\n",
    'c.ts': "import './loop/a';\n",
    'd/index.ts': "export type E = typeof import('../e');\n",
    'e.ts': "import { d } from './d';\n",
    'f.ts': "// import { g } from './g'\nconst text = \"import { g } from './g'\";\n",
    'g.ts': "import { f } from './f';\n",
    'h.ts': "import { h } from './h';\n",
  });
  const cycles = importCycles(importGraph([dir])).map(cycle => cycle.map(file => path.relative(dir, file)));
  expect(cycles).toHaveLength(3);
  expect(cycles).toContainEqual(['c.ts', 'loop/a.ts', 'loop/b.ts']);
  expect(cycles).toContainEqual(['d/index.ts', 'e.ts']);
  expect(cycles).toContainEqual(['h.ts']);
});
