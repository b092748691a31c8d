import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readValue, type ReadRule } from '../../../agent/actions/values/read-value';
import { shipValueRules, SHIPPED_VALUE_FILES } from '../../../agent/recipe/shipped-values';
import { PROJECT_ROOT } from '../helpers/nested-run';

type Read = typeof readValue;
type Element = Parameters<Read>[1];

const text = (raw: string, languages: string[] = [], timestamp?: string): Element => ({ raw, languages, timestamp });

/** One table for bwa's extract and for the exported spec: what was read from the element, the rule, and the value (or why there is none). */
const TABLE: Array<[Element, ReadRule, { value: unknown; why?: string }]> = [
  [text('  Ada   Lovelace \n'), {}, { value: 'Ada Lovelace' }],
  [text('  two  spaces '), { exact: true }, { value: '  two  spaces ' }],
  [text('   '), {}, { value: null, why: 'empty' }],
  [text('1,234 followers', ['en']), { type: 'number' }, { value: 1234 }],
  [text('1.234,5 €', ['de']), { type: 'number' }, { value: 1234.5 }],
  [text('no digits'), { type: 'number' }, { value: null, why: 'not a type' }],
  [text('   '), { type: 'integer' }, { value: null, why: 'empty' }],
  [text('Passed'), { type: 'boolean' }, { value: true }],
  [text('maybe'), { type: 'boolean' }, { value: null, why: 'not a type' }],
  [text('Publié le 30 avril 2015', ['fr']), { type: 'date' }, { value: '2015-04-30' }],
  [text('05/03/2024', ['en-GB']), { type: 'date' }, { value: '2024-03-05' }],
  [text('05/03/2024', ['en-US']), { type: 'date' }, { value: '2024-05-03' }],
  // A relative date on an element that carries its machine timestamp is that timestamp's date.
  [text('3 days ago', ['en'], '2024-03-08T12:00:00Z'), { type: 'date' }, { value: '2024-03-08' }],
  // In the languages chrono-node reads no relative dates in, too (relative-dates.ts).
  [text('hace 3 días', ['es'], '2024-03-08T12:00:00Z'), { type: 'date' }, { value: '2024-03-08' }],
  [text('3日前', ['ja'], '2024-03-08T12:00:00+09:00'), { type: 'date' }, { value: '2024-03-08' }],
  [text('soon'), { type: 'date' }, { value: null, why: 'not a type' }],
  [text('a\n b · c • d'), { type: 'list' }, { value: ['a', 'b', 'c', 'd'] }],
  [text('Followers: 42'), { pattern: 'followers:\\s*(\\d+)', type: 'integer' }, { value: 42 }],
  [text('Followers: none'), { pattern: '(\\d+)' }, { value: null, why: 'no match' }],
];

/** A folder inside the project (so the copies' chrono-node import resolves), removed after the test. */
function shippedDir(): string {
  const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, 'specs', 'generated', '.test-values-'));
  return dir;
}

test('bwa and the exported spec read values by one set of rules: the same table gives the same values, and why there is none', () => {
  const dir = shippedDir();
  try {
    shipValueRules(dir);
    // Loaded by the test runner's TypeScript loader from the copy, as a user's runner loads the exported spec's.
    const shipped = (require(path.join(dir, 'read-value.ts')) as { readValue: Read }).readValue;
    expect(shipped).not.toBe(readValue);
    for (const [element, rule, expected] of TABLE) {
      const label = `${JSON.stringify(element.raw)} ${JSON.stringify(rule)} ${element.languages.join(',')}`;
      const bwa = readValue(rule, element);
      expect(bwa, `bwa: ${label}`).toMatchObject(expected);
      if (!expected.why) expect(bwa.why, label).toBeUndefined();
      expect(shipped(rule, element), `exported: ${label}`).toEqual(bwa);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the shipped files are the value rules as bwa runs them, importing only each other and packages', () => {
  const dir = shippedDir();
  try {
    shipValueRules(dir);
    expect(fs.readdirSync(dir).sort()).toEqual([...SHIPPED_VALUE_FILES].sort());
    for (const name of SHIPPED_VALUE_FILES) {
      const shipped = fs.readFileSync(path.join(dir, name), 'utf8');
      expect(shipped).toBe(fs.readFileSync(path.join(PROJECT_ROOT, 'agent/actions/values', name), 'utf8'));
      for (const [, from] of shipped.matchAll(/from '([^']+)'/g))
        expect(from!.startsWith('./') ? `${from!.slice(2)}.ts` : from, name).toMatch(
          /^(read-value|read-element|coerce|dates|relative-dates|numbers)\.ts$|^chrono-node$|^@playwright\/test$/,
        );
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
