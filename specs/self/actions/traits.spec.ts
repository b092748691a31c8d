import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ACTION_NAMES } from '../../../agent/actions/names';
import { actionNames, getAction } from '../../../agent/actions/registry';
import type { ActionLogEntry } from '../../../agent/evidence/result-schema';
import { shouldBreakBatch } from '../../../agent/loop/batch';
import { efficientRoute } from '../../../agent/memory/route';
import { pruneLog } from '../../../agent/recipe/prune-log';

const AGENT = path.resolve(__dirname, '../../../agent');
const QUOTED_LIST = /\[\s*'[a-z_]+'(?:\s*,\s*'[a-z_]+')+\s*,?\s*\]/g;
const FLAT_OBJECT = /\{[^{}]*\}/g;

function agentFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? agentFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

test('no list of action names outside agent/actions: a trait is declared on the action definition and read from there', () => {
  const actions = new Set(actionNames());
  const outside = agentFiles(AGENT).filter(file => !file.startsWith(path.join(AGENT, 'actions') + path.sep));
  const found = (pattern: RegExp, names: (text: string) => string[], min: number) =>
    outside.flatMap(file =>
      [...fs.readFileSync(file, 'utf8').matchAll(pattern)]
        .filter(match => names(match[0]).length >= min && names(match[0]).every(name => actions.has(name)))
        .map(match => `${path.relative(AGENT, file)}: ${match[0].replace(/\s+/g, ' ')}`),
    );
  // A list of names (a set of actions sharing a trait) or a map keyed by them (a weight per action).
  expect(found(QUOTED_LIST, text => [...text.matchAll(/'([a-z_]+)'/g)].map(m => m[1]!), 2)).toEqual([]);
  expect(found(FLAT_OBJECT, text => [...text.matchAll(/([a-z_]+)\s*:/g)].map(m => m[1]!), 3)).toEqual([]);
});

test("the names list the task schema reads (actions/names.ts) is the registry's: each name has the definition of that name", () => {
  for (const name of ACTION_NAMES) expect(getAction(name)?.name, name).toBe(name);
});

test('a batch stops after exactly the actions whose definitions say they leave the page, end the sample or must be seen first', () => {
  const calm = { result: { success: true, description: 'ok' }, urlBefore: 'http://a/', urlAfter: 'http://a/' };
  for (const name of actionNames()) {
    const action = getAction(name)!;
    const declared = action.leavesPage === true || action.terminal === true || action.endsBatch === true;
    expect(shouldBreakBatch({ name, args: {} }, calm, 10, 10) !== undefined, name).toBe(declared);
  }
});

const logged = (step: number, name: string, args: Record<string, unknown> = {}): ActionLogEntry => ({
  step,
  timestamp: 't',
  decider: 'model',
  action: { name, args },
  outcome: { success: true, description: 'ok' },
  url_before: 'http://a/',
  url_after: 'http://a/',
  duration_ms: 1,
});

test('pruning and the route tip read the traits: a typing before an action that may submit stays, a bare pause and a hover nothing used go', () => {
  const typedTwice = (between: string) =>
    pruneLog(
      [logged(1, 'type', { target: 'Search', text: 'a' }), logged(2, between), logged(3, 'type', { target: 'Search', text: 'b' })],
      {},
      'conservative',
    ).dropped.map(d => d.why);
  expect(typedTwice('press'), 'press may submit').toEqual([]);
  expect(typedTwice('click'), 'click may submit').toEqual([]);
  expect(typedTwice('scroll')).toEqual(['overwritten by a later one']);

  const route = (log: ActionLogEntry[]) =>
    efficientRoute({ extracted: {} }, log).steps.map(e => `${e.action.name}${e.action.args.text ? ` ${String(e.action.args.text)}` : ''}`);
  expect(route([logged(1, 'wait', { seconds: 1 }), logged(2, 'wait', { text: 'Loaded' })])).toEqual(['wait Loaded']);
  expect(route([logged(1, 'hover', { target: 'Menu' }), logged(2, 'click', { target: 'Item' })])).toEqual(['hover', 'click']);
  expect(route([logged(1, 'hover', { target: 'Menu' }), logged(2, 'scroll')])).toEqual(['scroll']);
});
