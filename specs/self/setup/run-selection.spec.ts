import { expect, test } from '@playwright/test';
import * as path from 'node:path';
import { parseTestArgs, selectTasks, type ProjectInfo } from '../../../agent/setup/run-selection';
import { PROJECT_ROOT } from '../helpers/nested-run';

/** The projects of playwright.config.ts: `bwa` loads the generated tests, `self` does not. */
const PROJECTS: ProjectInfo[] = [
  { name: 'bwa', testDir: path.join(PROJECT_ROOT, 'agent/project'), testMatch: 'tasks.spec.ts' },
  { name: 'self', testDir: path.join(PROJECT_ROOT, 'specs/self'), testMatch: '**/*.@(spec|test).?(c|m)[jt]s?(x)' },
];
const TASKS = ['org_members', 'org_repos', 'people_index'];
const argv = (...args: string[]) => ['/usr/bin/node', '/x/node_modules/@playwright/test/cli.js', 'test', ...args];
const selected = (...args: string[]) => selectTasks(TASKS, parseTestArgs(argv(...args)), PROJECTS);

test('the CLI selection reaches globalSetup only through argv: --grep, --grep-invert, --project, file filters', () => {
  expect(parseTestArgs(argv('--project=bwa', '--grep', '@org_members', '--workers=2', '-c', 'x.config.ts'))).toEqual({
    grep: '@org_members',
    projects: ['bwa'],
    files: [],
  });
  expect(parseTestArgs(argv('--reporter', 'list', '-G', '@b', 'specs/tasks.spec.ts:12', '--project', 'tasks', 'self'))).toEqual({
    grepInvert: '@b',
    projects: ['tasks', 'self'],
    files: ['specs/tasks.spec.ts:12'],
  });
  expect(parseTestArgs(argv('specs/tasks.spec.ts', '--shuffle', '--list'))).toEqual({ projects: [], files: ['specs/tasks.spec.ts'] });
});

test('only the tasks the run will load are discovered', () => {
  expect(selected()).toEqual(TASKS);
  expect(selected('--project=bwa', '--grep', '@org_members')).toEqual(['org_members']);
  expect(selected('--grep', '@org_')).toEqual(['org_members', 'org_repos']);
  expect(selected('--grep', '@org_members(?![\\w-])')).toEqual(['org_members']);
  expect(selected('--grep', 'org_members.*ada')).toEqual(['org_members']);
  expect(selected('--grep-invert', '@org_repos')).toEqual(['org_members', 'people_index']);
  expect(selected('--grep', '@people_profile')).toEqual([]);
  expect(selected('--project=self')).toEqual([]);
  expect(selected('--project=Bw*')).toEqual(TASKS);
  expect(selected('specs/self/plan/planner.spec.ts')).toEqual([]);
  expect(selected('tasks.spec', '--grep', '@people_index')).toEqual(['people_index']);
});
