import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { boundaryViolations, leafFiles, partOf, ruleCycles } from '../helpers/import-boundaries';
import { importGraph } from '../helpers/import-graph';
import { tempDir, writeFiles } from '../helpers/temp';
import { BOUNDARIES } from './boundaries';

const AGENT = path.resolve(__dirname, '../../../agent');
const RULES_FILE = 'specs/self/structure/boundaries.ts';

test('agent/ keeps its layers: every import between its folders is one the boundaries table allows', () => {
  const graph = importGraph([AGENT]);
  expect(graph.size).toBeGreaterThan(200);
  expect(boundaryViolations(graph, AGENT, BOUNDARIES, RULES_FILE)).toEqual([]);
});

test('the table is a layering: no two parts may import each other, around any loop (a file allowed across a boundary counts as its part unless it imports nothing of ours), and every part of agent/ has a rule', () => {
  expect(ruleCycles(BOUNDARIES, leafFiles(importGraph([AGENT]), AGENT))).toEqual([]);
  const parts = [...new Set(fs.readdirSync(AGENT).map(entry => partOf(AGENT, path.join(AGENT, entry))!))];
  expect(parts.sort()).toEqual(Object.keys(BOUNDARIES).sort());
  // A file allowed across a boundary must exist, so a rename cannot leave a stale allowance behind.
  for (const rule of Object.values(BOUNDARIES))
    for (const file of Object.keys(rule.files ?? {})) expect(fs.existsSync(path.join(AGENT, file)), file).toBe(true);
});

test('a new import across a boundary fails, naming the file, the import and the rule', () => {
  const root = path.join(tempDir('bwa-boundaries-'), 'agent');
  writeFiles(root, {
    'fs/atomic.ts': "import { settings } from '../settings';\n",
    'settings.ts': "import { env } from './env/read';\n",
    'env/read.ts': 'export const env = {};\n',
    'task/schema.ts': "import { actionNames } from '../actions/registry';\nimport type { Step } from '../actions/steps';\n",
    'actions/registry.ts': "import type { TaskSpec } from '../task/schema';\n",
    'actions/steps.ts': 'export type Step = {};\n',
    'loop/run.ts': "import { page } from '../../specs/page';\n",
    'newpart/thing.ts': 'export {};\n',
  });
  writeFiles(path.dirname(root), { 'specs/page.ts': 'export const page = 1;\n' });
  const rules = {
    fs: { may: [] },
    env: { may: [] },
    settings: { may: ['env'] },
    task: { may: [], files: { 'actions/registry.ts': 'why' } },
    actions: { may: ['task'] },
    loop: { may: ['actions'] },
  };
  const violations = boundaryViolations(importGraph([root]), root, rules, 'rules.ts');
  expect(violations.sort()).toEqual(
    [
      'agent/fs/atomic.ts imports agent/settings.ts: fs may import nothing else of ours (rule "fs" in rules.ts)',
      'agent/task/schema.ts imports agent/actions/steps.ts: task may import nothing else of ours (rule "task" in rules.ts)',
      `agent/loop/run.ts imports ${path.relative(process.cwd(), path.join(path.dirname(root), 'specs/page.ts'))}: agent/ imports nothing outside agent/ (rule in rules.ts)`,
      'agent/newpart/thing.ts: "newpart" has no rule in rules.ts — add one saying what it may import',
    ].sort(),
  );
  expect(ruleCycles({ a: { may: ['b'] }, b: { may: ['c'] }, c: { may: ['a'] } })).toContainEqual(['a', 'b', 'c', 'a']);
  // A file allowed across a boundary closes a loop through its part, unless it imports nothing of ours.
  const leaves = leafFiles(importGraph([root]), root);
  expect([...leaves].sort()).toEqual(['actions/steps.ts', 'env/read.ts', 'loop/run.ts', 'newpart/thing.ts']);
  expect(ruleCycles(rules, leaves)).toContainEqual(['task', 'actions', 'task']);
  expect(ruleCycles({ ...rules, task: { may: [], files: { 'actions/steps.ts': 'why' } } }, leaves)).toEqual([]);
});
