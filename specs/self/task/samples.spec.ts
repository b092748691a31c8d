import { expect, test } from '@playwright/test';
import * as path from 'node:path';
import { TaskSpecSchema } from '../../../agent/task/schema';
import { loadSamplesCsv } from '../../../agent/task/samples';
import { adHocSample } from '../../../agent/task/suite';
import { taskJson, tempDir, writeFiles } from '../helpers/temp';
import { SITE } from '../helpers/sites';

const task = TaskSpecSchema.parse(taskJson({ input_schema: { username: 'string', company: 'string | null', rank: 'number | null' } }));

function csv(content: string | Buffer) {
  const dir = tempDir();
  writeFiles(dir, { 'demo.csv': content });
  return () => loadSamplesCsv(task, path.join(dir, 'demo.csv'));
}

test('BOM, CRLF and quoted fields with commas, quotes and newlines', () => {
  const samples = csv('\uFEFFsample_id,username,company,rank\r\nada,ada,"Engines, Ltd",1\r\ngrace,grace,"The ""Navy""\nUS",\r\n')();
  expect(samples.map(s => s.sample_id)).toEqual(['ada', 'grace']);
  expect(samples[0]!.row.company).toBe('Engines, Ltd');
  expect(samples[1]!.row.company).toBe('The "Navy"\nUS');
  expect(samples[1]!.line).toBe(3);
});

test('a row added with LF to a CRLF file is read as its own line: no value keeps a line break', () => {
  const samples = csv('sample_id,username,company,rank\r\nada,ada,Engines,1\r\ngrace,grace,Navy,2\nalan,alan,Bletchley,3\n')();
  expect(samples.map(s => [s.sample_id, s.row.company, s.row.rank, s.line])).toEqual([
    ['ada', 'Engines', '1', 2],
    ['grace', 'Navy', '2', 3],
    ['alan', 'Bletchley', '3', 4],
  ]);
  const oldMac = csv('sample_id,username,company,rank\rada,ada,,1\r')();
  expect(oldMac.map(s => s.row.rank)).toEqual(['1']);
});

test("bwa init's placeholder row is flagged with its line and column", () => {
  expect(csv('sample_id,username,company,rank\nexample,<username>,,\n')).toThrow(
    'line 2, column username: "<username>" is the placeholder bwa init wrote — put this sample\'s value there (or delete the row)',
  );
});

test('missing and unknown columns are named, on the header line', () => {
  expect(csv('sample_id,company,rank\na,,\n')).toThrow(/demo\.csv: line 1 \(header\): missing column\(s\) username/);
  expect(csv('sample_id,username,company,rank,colour\na,a,,,red\n')).toThrow(
    /unknown column\(s\) colour \(declare them in input_schema of task demo\)/,
  );
  expect(csv('username,company,rank\na,,\n')).toThrow(/missing column sample_id/);
});

test('duplicate sample ids name both lines', () => {
  expect(csv('sample_id,username,company,rank\nada,ada,,\ngrace,g,,\nada,x,,\n')).toThrow(
    /line 4, column sample_id: duplicate "ada" \(first on line 2\)/,
  );
});

test('sample ids that differ only in case are refused, naming the file, both lines and the column', () => {
  // On macOS or Windows "Ada" and "ada" would write into one evidence folder.
  expect(csv('sample_id,username,company,rank\nAda,ada,,\ngrace,g,,\nada,x,,\n')).toThrow(
    /demo\.csv: 1 invalid row value\(s\)\n  • line 4, column sample_id: "ada" differs from "Ada" \(line 2\) only in case — they would share one evidence folder on a case-insensitive file system; rename one/,
  );
});

test('unsafe sample ids are rejected with their line number', () => {
  const long = 'x'.repeat(101);
  const run = csv(`sample_id,username,company,rank\n../etc,a,,\na/b,a,,\n"",a,,\nbad\u0000id,a,,\n${long},a,,\n.hidden,a,,\n`);
  expect(run).toThrow(/line 2, column sample_id: "\.\.\/etc" contains a path separator/);
  expect(run).toThrow(/line 3, column sample_id: "a\/b" contains a path separator/);
  expect(run).toThrow(/line 4, column sample_id: is empty/);
  expect(run).toThrow(/line 5, column sample_id: contains a NUL character/);
  expect(run).toThrow(/line 6, column sample_id: is 101 characters long/);
  expect(run).toThrow(/line 7, column sample_id: "\.hidden" may only contain/);
});

test('value types: required values, numbers', () => {
  const run = csv('sample_id,username,company,rank\nada,,,\ngrace,grace,,high\n');
  expect(run).toThrow(/line 2, column username: empty \(expected string\)/);
  expect(run).toThrow(/line 3, column rank: "high" is not a number/);
});

test('empty files and header-only files', () => {
  expect(csv('')).toThrow(/demo\.csv: the file is empty \(expected a header row with sample_id, username, company, rank\)/);
  expect(csv('sample_id,username,company,rank\n')).toThrow(/no sample rows after the header/);
});

test('a ragged row is reported with its line', () => {
  expect(csv('sample_id,username,company,rank\nada,ada\n')).toThrow(/demo\.csv: line 2: .*/);
});

test('non-UTF-8 bytes are reported with their line', () => {
  const latin1 = Buffer.concat([Buffer.from('sample_id,username,company,rank\nada,ada,'), Buffer.from([0x4d, 0xfc, 0x6c]), Buffer.from(',\n')]);
  expect(csv(latin1)).toThrow(/demo\.csv: line 2: not valid UTF-8 \(byte 0xfc at offset \d+\)/);
});

test('a 10,000-row CSV loads', () => {
  const rows = Array.from({ length: 10_000 }, (_, i) => `s${i},user${i},,${i}`).join('\n');
  expect(csv(`sample_id,username,company,rank\n${rows}\n`)()).toHaveLength(10_000);
});

test('AGENT_URL makes one ad-hoc sample with a folder-safe id', () => {
  const sample = adHocSample(`${SITE.people}/people/ada?tab=x`);
  expect(sample.sample_id).toBe('127.0.0.1_4101_people_ada');
  expect(sample.row.url).toBe(`${SITE.people}/people/ada?tab=x`);
  expect(() => adHocSample('not a url')).toThrow(/AGENT_URL: "not a url" is not a URL/);
});
