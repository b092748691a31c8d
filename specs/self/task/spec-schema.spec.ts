import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { valueProblems } from '../../../agent/loop/judgment';
import { loadTaskFile } from '../../../agent/task/load-task';
import { SemanticLocator } from '../../../agent/task/locator-schema';
import { RecipeStep } from '../../../agent/task/schema';
import { loadSamplesCsv } from '../../../agent/task/samples';
import { JSON_SCHEMA_FILE, renderTaskJsonSchema } from '../../../agent/task/write-json-schema';
import { taskJson, tempDir, writeFiles } from '../helpers/temp';

function load(content: string | Record<string, unknown>, name = 'demo.json') {
  const dir = tempDir();
  writeFiles(dir, { [name]: typeof content === 'string' ? content : JSON.stringify(content, null, 2) });
  return () => loadTaskFile(path.join(dir, name));
}

test('a valid spec loads with defaults applied and a stable hash', () => {
  const task = load(taskJson())();
  expect(task.spec.max_steps).toBe(25);
  expect(task.spec.phase).toBe('execution');
  expect(task.spec.required_fields).toEqual([]);
  expect(task.hash).toMatch(/^[0-9a-f]{64}$/);
  expect(load(taskJson({ recipe: [{ action: 'done', extracted: {} }] }))().hash).toBe(task.hash);
});

test('malformed JSON names the file, line and column', () => {
  const run = load('{\n  "task_id": "demo",\n  "goal": oops\n}');
  expect(run).toThrow(/demo\.json:3:\d+: malformed JSON/);
});

test('unknown fields are rejected by name and line', () => {
  const lineOf = (text: string, key: string) => text.split('\n').findIndex(line => line.includes(`"${key}"`)) + 1;
  const spec = taskJson({ max_stepz: 10 });
  const line = lineOf(JSON.stringify(spec, null, 2), 'max_stepz');
  expect(line).toBeGreaterThan(1);
  expect(load(spec)).toThrow(`demo.json: invalid task spec\n  • max_stepz: unknown field (line ${line})`);
});

test('field types follow one grammar: a misspelt type is an error naming the field, its line and the type meant', () => {
  const typo = load(taskJson({ output_schema: { name: 'strng | null' } }));
  expect(typo).toThrow(/• output_schema\.name: "strng \| null": "strng" is not a type; did you mean "string"\? .* \(line \d+\)$/m);
  expect(load(taskJson({ input_schema: { username: 'text' } }))).toThrow(/• input_schema\.username: "text" is not a type — a type is string, number/);
  // An enumeration is a list of values, not types; one that looks like a misspelt type is still caught.
  expect(load(taskJson({ output_schema: { verdict: 'yes | no | nul' } }))).toThrow(/"nul" looks like the type "null"/);
  const fine = {
    a: 'string | null',
    b: 'Integer | Null',
    c: 'date (YYYY-MM-DD)',
    d: 'yes | no | inconclusive',
    e: 'Full-time | Part-time | Contractor',
    f: 'array of { number, ci_status: passed | failed } | null',
    g: 'url',
    h: ['string'],
    i: { nested: 'boolean' },
  };
  expect(() =>
    load(taskJson({ output_schema: fine, judgment_required: true, judgment_question: 'ok?', judgment_output_schema: { confidence: '0.0-1.0' } }))(),
  ).not.toThrow();
  expect(load(taskJson({ output_schema: { name: 'string', tags: ['strng'] } }))).toThrow(/output_schema\.tags: "strng" is not a type/);
});

test('a type the validator accepts is read the same way where values are checked: the CSV loader, the judgment and the batch judge', () => {
  const spec = load(taskJson({ input_schema: { note: 'String | Null', rank: 'Integer (1-based)', site: 'URL | null' } }))().spec;
  const dir = tempDir();
  writeFiles(dir, { 'demo.csv': 'sample_id,note,rank,site\nada,,3,\ngrace,x,third,ftp://x\n' });
  expect(() => loadSamplesCsv(spec, path.join(dir, 'demo.csv'))).toThrow(
    /^(?![\s\S]*line 2)[\s\S]*line 3, column rank: "third" is not a number[\s\S]*line 3, column site: "ftp:\/\/x" is not an http\(s\) URL/,
  );
  expect(valueProblems('n', 'Integer | Null', null)).toEqual([]);
  expect(valueProblems('n', 'Integer', 'three')).toEqual(['n must be a number']);
  expect(valueProblems('b', 'Boolean | NULL', 'yes')).toEqual(['b must be true or false']);
  expect(valueProblems('v', 'yes | no', 'maybe')).toEqual(['v must be one of yes / no']);
  expect(valueProblems('c', '0.0-1.0 | null', 2)).toEqual(['c must be a number in 0.0-1.0 | null']);
  expect(valueProblems('t', 'Array Of { name }', 'Ada')).toEqual(['t must be an array']);
});

test('a locator that picks its match twice ("nth" and "first") is refused wherever it is read: a spec\'s recipe, a compiled recipe, discovery', () => {
  const twice = { css: 'h1', nth: 1, first: true };
  expect(load(taskJson({ recipe: [{ action: 'extract', field: 'name', target: twice }] }))).toThrow(
    /• recipe\[0\]\.target: "nth" and "first" both pick a match — keep one \(line \d+\)/,
  );
  const step = RecipeStep.safeParse({ action: 'click', target: twice });
  expect(step.error?.issues.map(issue => issue.message)).toEqual(['"nth" and "first" both pick a match — keep one']);
  expect(SemanticLocator.safeParse({ role: 'link', name: 'Next', first: true }).success).toBe(true);
  expect(SemanticLocator.safeParse({ role: 'link', name: 'Next', nth: 0, first: true }).success).toBe(false);
});

test('wrong types name the JSON path and what was expected', () => {
  const run = load(taskJson({ max_steps: 'ten', recipe: [{ action: 'click', target: { role: 5 } }] }));
  expect(run).toThrow(/• max_steps: .*expected number/);
  expect(run).toThrow(/• recipe\[0\]\.target/);
});

test('a recipe step with an unknown action names the file, the step and every action there is', () => {
  const run = load(
    taskJson({
      recipe: [
        { action: 'goto', url: 'https://example.com/' },
        { action: 'clik', target: 'Next' },
      ],
    }),
  );
  expect(run).toThrow(
    /demo\.json: invalid task spec\n\s+• recipe\[1\]\.action: unknown action "clik" \(expected one of: goto, go_back, .*, click, .*, done, fail\)/,
  );
  const schema = JSON.parse(fs.readFileSync(JSON_SCHEMA_FILE, 'utf8'));
  expect(JSON.stringify(schema)).toContain('"enum":["goto","go_back","refresh","switch_tab","click"');
});

test('missing required fields are each named', () => {
  const spec = taskJson();
  delete spec.goal;
  delete spec.output_schema;
  const run = load(spec);
  expect(run).toThrow(/• goal: .*expected string/);
  expect(run).toThrow(/• output_schema: /);
});

test('inconsistent fields are reported together', () => {
  const run = load(taskJson({ required_fields: ['name', 'nope'], judgment_required: true, when_reads_disagree: { '*': 'page', gone: 'first' } }));
  expect(run).toThrow(/• required_fields\[1\]: "nope" is not a key of output_schema/);
  expect(run).toThrow(/• judgment_question: required when judgment_required is true/);
  expect(run).toThrow(/• when_reads_disagree\.gone: "gone" is not a key of output_schema \(or "\*"\)/);
  expect(load(taskJson({ when_reads_disagree: { name: 'newest' } }))).toThrow(
    /• when_reads_disagree\.name: Invalid option: expected one of "review"\|"first"\|"last"\|"page"\|"metadata"/,
  );
});

test('task_id must match the file name and be safe', () => {
  expect(load(taskJson({ task_id: 'other' }))).toThrow(/task_id: "other" must equal the file name "demo"/);
  expect(load(taskJson({ task_id: '../evil' }), 'demo.json')).toThrow(/• task_id: lowercase letters/);
});

test('allowed_domains is required: a task never runs unconfined', () => {
  const spec = taskJson();
  delete spec.allowed_domains;
  expect(load(spec)).toThrow(/• allowed_domains: /);
});

test('tasks/task.schema.json is generated from the zod schema and up to date', () => {
  expect(fs.readFileSync(JSON_SCHEMA_FILE, 'utf8')).toBe(renderTaskJsonSchema());
});

test('every bundled task spec loads', () => {
  const dir = path.resolve(__dirname, '../../../tasks');
  const files = fs.readdirSync(dir).filter(f => f.endsWith('.json') && f !== 'task.schema.json');
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) expect(() => loadTaskFile(path.join(dir, file)), file).not.toThrow();
});
