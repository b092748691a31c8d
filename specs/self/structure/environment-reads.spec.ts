import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ENV_VARIABLES } from '../../../agent/env/variables';

const ROOT = path.resolve(__dirname, '../../..');
/**
 * The one reader; the exported spec's source text (a standalone file that reads its own secrets); and the example
 * project's config, written as a user writes theirs (`forbidOnly: Boolean(process.env.CI)`), not as bwa's code.
 */
const MAY_READ = ['agent/env/read.ts', 'agent/recipe/spec-code.ts', 'playwright.config.ts'];
const VARIABLE_NAME = /\b(?:AGENT|ANTHROPIC)_[A-Z0-9_]+\b/g;

function files(dir: string, ends: readonly string[]): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap(entry => {
    const relative = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(relative, ends);
    return ends.some(end => entry.name.endsWith(end)) ? [relative] : [];
  });
}

test('bwa reads the environment in one place: nothing in agent/ or the configs touches process.env but agent/env/read.ts', () => {
  const sources = [...files('agent', ['.ts']), 'playwright.config.ts', 'playwright.self.config.ts', 'bin/bwa.cjs'];
  expect(sources.length).toBeGreaterThan(150);
  const readers = sources.filter(file => fs.readFileSync(path.join(ROOT, file), 'utf8').includes('process.env'));
  expect(readers, 'read variables through agent/env/read.ts (env, readEnv, passOn): it checks them against the schema').toEqual(MAY_READ);
});

test('every AGENT_* and ANTHROPIC_* variable named in the code, docs and CI script is in the schema', () => {
  const named = [
    ...files('agent', ['.ts']),
    ...files('docs', ['.md']),
    'README.md',
    'playwright.config.ts',
    'playwright.self.config.ts',
    '.env.example',
    '.ci/run',
  ].flatMap(file => [...fs.readFileSync(path.join(ROOT, file), 'utf8').matchAll(VARIABLE_NAME)].map(match => `${match[0]} (${file})`));
  expect(named.length).toBeGreaterThan(200);
  const unknown = named.filter(mention => !(mention.split(' ')[0]! in ENV_VARIABLES));
  expect(unknown, 'a variable bwa does not read (add it to agent/env/variables.ts, or correct the name)').toEqual([]);
});
