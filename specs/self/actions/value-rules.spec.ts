import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { extract } from '../../../agent/actions/extract';
import { readValue, type ReadRule } from '../../../agent/actions/values/read-value';
import { shipValueRules, SHIPPED_SOURCES, SHIPPED_VALUE_FILES } from '../../../agent/recipe/shipped-values';
import { specCode } from '../../../agent/recipe/spec-code';
import { loadTaskFile } from '../../../agent/task/load-task';
import { PROJECT_ROOT } from '../helpers/nested-run';
import { taskJson, tempDir } from '../helpers/temp';
import { expect, test } from './harness';

type Element = Parameters<typeof readValue>[1];

const text = (raw: string, languages: string[] = [], timestamp?: string): Element => ({ raw, languages, timestamp });

/** What was read from an element, the rule, and the value (or why there is none). */
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

test("bwa's value rules: each text and rule gives its value, or says why there is none", () => {
  for (const [element, rule, expected] of TABLE) {
    const label = `${JSON.stringify(element.raw)} ${JSON.stringify(rule)} ${element.languages.join(',')}`;
    const read = readValue(rule, element);
    expect(read, label).toMatchObject(expected);
    if (!expected.why) expect(read.why, label).toBeUndefined();
  }
});

/** The table's texts on a page, one element each (`#r<i>`), plus elements only a locator tells apart. */
function tablePage(): string {
  const rows = TABLE.map(([element], i) => {
    const lang = element.languages[0] ? ` lang="${element.languages[0]}"` : '';
    const html = element.raw!.replace(/\n/g, '<br>');
    return element.timestamp ? `<p${lang}><time id="r${i}" datetime="${element.timestamp}">${html}</time></p>` : `<p id="r${i}"${lang}>${html}</p>`;
  });
  return [
    ...rows,
    '<h2>Daily Lab</h2><h2>Harbour board publishes the dredging survey</h2>',
    '<h3 id="heading">Load more</h3><button id="button">Load more</button>',
    '<ul><li>3</li><li>none</li><li>12</li></ul>',
  ].join('\n');
}

/** extract steps as a recipe holds them: every table row, then locators that match none, several, or pick one. */
function extractSteps(): Array<Record<string, unknown>> {
  // A value reads the same either way; where there is none, missing "null" decides between null and a failure.
  const rows = TABLE.flatMap(([, rule, expected], i) => {
    const step = { action: 'extract', field: `r${i}`, target: { css: `#r${i}` }, ...rule };
    return expected.why ? [step, { ...step, missing: 'null' }] : [step];
  });
  const locators = [
    { field: 'absent', target: { css: '#nowhere' } },
    { field: 'several', target: { css: 'h2' } },
    { field: 'second', target: { css: 'h2', nth: 1 } },
    { field: 'first', target: { css: 'h2', first: true } },
    { field: 'past', target: { css: 'h2', nth: 5 } },
    { field: 'unparsable', target: { css: 'h2 >> >> p' } },
    { field: 'control', target: { text: 'Load more' }, attribute: 'id' },
    { field: 'items', target: { css: 'li' }, all: true, type: 'integer' },
    { field: 'noattribute', target: { css: '#r0' }, attribute: 'title' },
  ];
  return [
    ...rows,
    ...locators.flatMap(step => [
      { action: 'extract', ...step },
      { action: 'extract', ...step, missing: 'null' },
    ]),
  ];
}

type ShippedRead = (candidates: Locator[], rule: object, pick?: object) => Promise<unknown>;

/**
 * Each extract step as the exported spec runs it: its generated lines, with the shipped copies of the rules the
 * spec imports — the glue (locators, options, the pick) as `bwa recipe export` writes it.
 */
function exportedSteps(steps: Array<Record<string, unknown>>, shipped: string): Array<(tab: Page) => Promise<{ value?: unknown; error?: string }>> {
  const dir = tempDir('bwa-value-rules-task-');
  fs.writeFileSync(path.join(dir, 'rules.json'), JSON.stringify(taskJson({ task_id: 'rules', output_schema: {}, required_fields: [] })));
  const task = loadTaskFile(path.join(dir, 'rules.json'));
  // A last step after the reads, so each read's lines end at the next step's comment.
  const recipe = [...steps, { action: 'done', extracted: {} }];
  const code = specCode({ task: task.spec, steps: recipe as never, csvFromSpec: 'rules.csv', inputsFromSpec: 'inputs', origin: 'a test' });
  // The spec's own CONTROLS, unquoted (spec-code writes it as a single-quoted literal).
  const controls = /^const CONTROLS = '(.*)';$/m.exec(code)![1]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  const { readField } = require(path.join(shipped, 'read-field.ts')) as { readField: ShippedRead };
  const { locateOne } = require(path.join(shipped, 'locate.ts')) as { locateOne: unknown };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
  return steps.map((step, i) => {
    const lines = new RegExp(`// ${i + 1}\\. extract ${String(step.field)}\\n([\\s\\S]*?)\\n\\s*// `).exec(code)?.[1];
    if (!lines) throw new Error(`step ${i + 1} not found in the exported spec`);
    const body = new AsyncFunction('tab', 'data', 'readField', 'locateOne', 'CONTROLS', lines);
    return async tab => {
      const data: Record<string, unknown> = {};
      try {
        await body(tab, data, readField, locateOne, controls);
        return { value: data[String(step.field)] };
      } catch (error) {
        return { error: String(error) };
      }
    };
  });
}

test('bwa and the exported spec read values by one set of rules: the same element, the same value, null or failure', async ({ harness }) => {
  const shipped = fs.mkdtempSync(path.join(PROJECT_ROOT, 'specs', 'generated', '.test-values-'));
  try {
    shipValueRules(shipped);
    const steps = extractSteps();
    const exported = exportedSteps(steps, shipped);
    await harness.open('value-rules', tablePage());
    const outcomes: Array<{ value?: unknown; error?: string }> = [];
    for (const [i, step] of steps.entries()) {
      const { action: _, ...args } = step;
      const label = JSON.stringify(args);
      const bwa = await harness.act('extract', args);
      const spec = await exported[i]!(harness.tabs.active);
      outcomes.push(spec);
      expect(
        spec.error === undefined,
        `${label}: bwa ${bwa.success ? 'read a value' : `failed: ${bwa.error}`}; the exported spec ${spec.error ?? 'read a value'}`,
      ).toBe(bwa.success);
      if (bwa.success) expect(spec.value, label).toEqual(bwa.effects?.extracted?.value);
    }
    // Both met every outcome: values, nulls and failures, and the one match to act on among several.
    expect(outcomes.some(o => o.error)).toBe(true);
    expect(outcomes.some(o => o.value === null)).toBe(true);
    expect(outcomes.find((_, i) => steps[i]!.field === 'control')?.value).toBe('button');
  } finally {
    fs.rmSync(shipped, { recursive: true, force: true });
  }
});

test('the exported spec passes every argument of extract to the shipped rules; a count, which has no plain Playwright equivalent, is refused by name', () => {
  const dir = tempDir('bwa-value-rules-args-');
  fs.writeFileSync(path.join(dir, 'rules.json'), JSON.stringify(taskJson({ task_id: 'rules' })));
  const task = loadTaskFile(path.join(dir, 'rules.json'));
  const every = {
    field: 'f',
    target: { css: 'p', nth: 1 },
    pattern: 'x',
    type: 'number',
    attribute: 'title',
    exact: true,
    missing: 'null',
    all: true,
  };
  expect([...Object.keys(every), 'count'].sort()).toEqual(Object.keys(extract.schema.shape).sort());
  const code = specCode({
    task: task.spec,
    steps: [{ action: 'extract', ...every } as never],
    csvFromSpec: 'x.csv',
    inputsFromSpec: 'in',
    origin: 'a test',
  });
  expect(code).toContain(
    "data['f'] = await readField([tab.locator('p')], { field: 'f', pattern: 'x', type: 'number', attribute: 'title', missing: 'null', all: true, exact: true }, { nth: 1, controls: CONTROLS });",
  );
  const counting = { action: 'extract', field: 'n', target: { css: 'li' }, count: true } as never;
  expect(() => specCode({ task: task.spec, steps: [counting], csvFromSpec: 'x.csv', inputsFromSpec: 'in', origin: 'a test' })).toThrow(
    'recipe step 1 (extract n with count) has no Playwright equivalent in the exporter',
  );
});

test('the shipped files are the rules (and the document collector) as bwa runs them, importing only each other and packages', () => {
  const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, 'specs', 'generated', '.test-values-'));
  try {
    shipValueRules(dir);
    expect(fs.readdirSync(dir).sort()).toEqual([...SHIPPED_VALUE_FILES].sort());
    const names = SHIPPED_VALUE_FILES.map(name => name.replace(/\.ts$/, ''));
    for (const name of SHIPPED_VALUE_FILES) {
      const shipped = fs.readFileSync(path.join(dir, name), 'utf8');
      expect(shipped).toBe(fs.readFileSync(path.join(PROJECT_ROOT, 'agent', SHIPPED_SOURCES[name], name), 'utf8'));
      for (const [, from] of shipped.matchAll(/from '([^']+)'/g))
        expect(
          from!.startsWith('./') ? names.includes(from!.slice(2)) : ['chrono-node', 'zod', '@playwright/test', 'node:crypto'].includes(from!),
          `${name} imports ${from}`,
        ).toBe(true);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
