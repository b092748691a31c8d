import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BOUNDARIES } from './boundaries';

const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** Every markdown file a person reads to find their way: the docs, the READMEs, the tests' maps and catalogues. */
function docs(): string[] {
  const under = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap(entry => {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : under(relative);
      return entry.name.endsWith('.md') ? [relative] : [];
    });
  return ['README.md', ...under('docs'), ...under('specs/self'), ...under('bench')];
}

/** A path of this repository as docs write it: `agent/…`, `specs/…`; placeholders (`<run_id>`, `*`) are patterns, not paths. */
const REPO_PATH = /(?<![\w./-])((?:agent|specs|fixtures|bench|tasks|docs|bin|\.ci)\/[\w./-]*)/g;

/** Files the README's walkthrough has the reader write (`bwa init book_prices` and what follows). */
const WRITTEN_BY_THE_READER = new Set([
  'tasks/book_prices.json',
  'tasks/inputs/book_prices.csv',
  'tasks/auth/shop.json',
  'specs/generated/people_profile.spec.ts',
]);

test('every path of the repository a doc names exists, and every relative link resolves', () => {
  const files = docs();
  expect(files.length).toBeGreaterThan(20);
  const missing: string[] = [];
  let named = 0;
  for (const file of files) {
    const text = read(file);
    for (const match of text.matchAll(REPO_PATH)) {
      const mentioned = match[1]!.replace(/[.,:;]+$/, '');
      const next = text[match.index! + match[0].length];
      if (next === '<' || next === '*' || next === '{' || WRITTEN_BY_THE_READER.has(mentioned)) continue;
      named += 1;
      if (!fs.existsSync(path.join(ROOT, mentioned))) missing.push(`${file} names ${mentioned}, which does not exist`);
    }
    for (const match of text.matchAll(/\]\(([^)#\s]+)/g)) {
      const link = match[1]!;
      if (/^[a-z]+:/.test(link)) continue;
      named += 1;
      if (!fs.existsSync(path.join(ROOT, path.dirname(file), link))) missing.push(`${file} links ${link}, which does not exist`);
    }
  }
  expect(named).toBeGreaterThan(150);
  expect(missing).toEqual([]);
});

test("docs/internals.md's map of agent/ is the boundaries table: every part, and what each may import", () => {
  const rows = [...read('docs/internals.md').matchAll(/^\| `agent\/([\w-]+)(?:\.ts`, `agent\/[\w-]+\/`|\/`|\.ts`) \| [^|]+ \| ([^|]+) \|$/gm)];
  const map = Object.fromEntries(rows.map(([, part, may]) => [part!, may!.trim()]));
  const expected = Object.fromEntries(
    Object.entries(BOUNDARIES).map(([part, rule]) => {
      const files = Object.entries(rule.files ?? {}).map(([file, why]) => `\`${file}\` (${why.split(':')[0]})`);
      return [part, [rule.may.length ? rule.may.join(', ') : '—', ...files].join('; ')];
    }),
  );
  expect(map).toEqual(expected);
});

test('specs/self/README.md names every folder of specs/self', () => {
  const readme = read('specs/self/README.md');
  const folders = fs
    .readdirSync(path.join(ROOT, 'specs/self'), { withFileTypes: true })
    .filter(entry => entry.isDirectory())
    .map(entry => entry.name);
  expect(folders.length).toBeGreaterThan(15);
  expect(folders.filter(folder => !readme.includes(`| \`${folder}/\` |`))).toEqual([]);
});
