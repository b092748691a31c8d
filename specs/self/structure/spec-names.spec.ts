import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SELF = path.resolve(__dirname, '..');

function specFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(entry => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return specFiles(full);
    return entry.name.endsWith('.spec.ts') ? [path.relative(SELF, full)] : [];
  });
}

/** A test's title as written: a quoted string, or a template with nothing interpolated (a loop's titles vary by design). */
const TEST_TITLE = /\btest(?:\.(?:only|skip|fixme|fail|slow))?\(\s*(?:'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)"|`((?:\\.|[^`\\$])*)`)/g;

/** Each value found under more than one key, with the keys it was found under. */
function sharedBy(found: Array<[key: string, value: string]>): Record<string, string[]> {
  const where = new Map<string, string[]>();
  for (const [key, value] of found) where.set(value, [...(where.get(value) ?? []), key]);
  return Object.fromEntries([...where].filter(([, keys]) => keys.length > 1));
}

const FILES = specFiles(SELF);

test('no two spec files of specs/self share a file name: a name found in a failure list points at one file', () => {
  expect(FILES.length).toBeGreaterThan(100);
  expect(sharedBy(FILES.map(file => [file, path.basename(file)]))).toEqual({});
});

test('no two tests of specs/self share a title: a title in a failure list points at one test', () => {
  const titles = FILES.flatMap(file =>
    [...fs.readFileSync(path.join(SELF, file), 'utf8').matchAll(TEST_TITLE)].map((m): [string, string] => [file, m[1] ?? m[2] ?? m[3]!]),
  );
  expect(titles.length).toBeGreaterThan(500);
  expect(sharedBy(titles)).toEqual({});
});
