import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { TextKind } from '../env/kinds';
import { isSet } from '../env/read';
import { docPath } from '../fs/package-docs';
import { settings } from '../settings';
import { BwaInputError } from '../task/input-errors';
import { loadTaskFile } from '../task/load-task';
import { placeholderFor } from '../task/samples';
import { TASK_ID_RULE, TaskId, TaskSpecSchema, type TaskSpecInput } from '../task/schema';
import { defineCommand, UsageError } from './command';
import { initProject, schemaFrom } from './init-project';
import { listed } from './listing';
import { BWA_PROJECTS } from '../project/names';

const FIELD_TYPES: Record<string, { descriptor: string; extract?: string }> = {
  string: { descriptor: 'string | null' },
  number: { descriptor: 'number | null', extract: 'number' },
  integer: { descriptor: 'integer | null', extract: 'integer' },
  boolean: { descriptor: 'boolean | null', extract: 'boolean' },
  date: { descriptor: 'date | null', extract: 'date' },
  list: { descriptor: 'array', extract: 'list' },
};

const NEXT_STEPS = [
  'Next:',
  '  npx bwa init <task_id> --url "https://…/{{column}}" --field name:type   start a task of your own (or copy tasks/_example.json)',
  '  npx bwa validate                                                         check every task',
  `  npx playwright test --grep @<task_id>                                    run one task beside your tests (--project=${BWA_PROJECTS.tasks}: every task)`,
  'Set ANTHROPIC_API_KEY in .env to let Claude decide the steps a recipe does not give.',
].join('\n');

/** The text a locator to fill in carries: `bwa validate` and a run both name it until it is replaced. */
export const FILL_IN = 'FILL IN';

type Field = { name: string; type: string };

const FIELD: TextKind<Field> = {
  schema: z
    .string()
    .regex(new RegExp(`^[A-Za-z_][A-Za-z0-9_]*(:(${Object.keys(FIELD_TYPES).join('|')}))?$`))
    .transform(text => {
      const [name, type = 'string'] = text.split(':');
      return { name: name!, type };
    }),
  takes: `name:type — a name of letters, digits and "_", a type of ${Object.keys(FIELD_TYPES).join(', ')} (default string), e.g. price:number`,
};

/** A start URL: http(s), with {{column}} templates. */
const START_URL: TextKind<string> = {
  schema: z.string().refine(url => z.url({ protocol: /^https?$/ }).safeParse(url.replace(/\{\{[^}]*\}\}/g, 'x')).success),
  takes: 'an http(s) URL ({{column}} templates allowed)',
};

export const initCommand = defineCommand({
  ...listed('init'),
  about: [
    'Without a task_id: adds bwa to the Playwright project in this folder — wraps its config in withBwa(…) where the',
    'edit is certain (else prints the lines to add), creates tasks/ with a commented example, and keeps reports/ and',
    '.auth/ out of git. Run it again at any time: it changes nothing that is already there, and says so.',
    '',
    'With a task_id: writes tasks/<task_id>.json and tasks/inputs/<task_id>.csv to start from: the start URL (a',
    '{{column}} in it becomes a CSV column), the fields to collect (each required), a recipe that screenshots the page',
    'and reads each field — with locators for you to fill in — and notes ($comment) on what to fill in.',
    'Never overwrites a file.',
  ].join('\n'),
  positionals: [{ name: 'task_id', optional: true, value: { schema: TaskId, takes: TASK_ID_RULE } }],
  options: {
    url: {
      type: 'string',
      placeholder: 'start_url',
      value: START_URL,
      help: 'with a task_id: the first page of each sample; a {{column}} in it becomes a CSV column',
    },
    field: {
      type: 'string',
      placeholder: 'name:type',
      multiple: true,
      value: FIELD,
      help: 'with a task_id: a field to collect (repeat it; default: title)',
    },
    config: {
      type: 'string',
      placeholder: 'file',
      help: 'without a task_id: the Playwright config to wire (default: the one Playwright finds here)',
    },
  },
  async run({ args: { task_id: taskId }, options }) {
    if (!taskId) {
      if (options.url || options.field.length)
        throw new UsageError('--url and --field start a task: give its task_id too (bwa init <task_id> --url …)');
      const init = initProject(process.cwd(), options.config);
      console.log(init.lines.join('\n'));
      if (!init.manual) console.log(init.changed ? `\n${NEXT_STEPS}` : '\nNothing changed: bwa is set up here.');
      return init.manual ? 1 : 0;
    }
    // The task goes where that config's runs read tasks: beside it (AGENT_TASKS_DIR still wins).
    const tasksDir = options.config && !isSet('AGENT_TASKS_DIR') ? path.join(path.dirname(path.resolve(options.config)), 'tasks') : settings.tasksDir;
    const url = options.url;
    if (!url) throw new UsageError('--url <start_url> is required: the first page of each sample of the task');
    const fields = options.field.length ? options.field : [{ name: 'title', type: 'string' }];
    const taskFile = path.join(tasksDir, `${taskId}.json`);
    const csvFile = path.join(tasksDir, 'inputs', `${taskId}.csv`);
    for (const file of [taskFile, csvFile])
      if (fs.existsSync(file))
        throw new BwaInputError('BWA_INIT_EXISTS', `${file} already exists: bwa init never overwrites — pick another task_id, or edit that file`);
    const spec = starterSpec(taskId, url, fields, tasksDir);
    const parsed = TaskSpecSchema.safeParse(spec);
    if (!parsed.success)
      throw new BwaInputError(
        'BWA_INIT',
        `the task bwa init would write is not valid: ${parsed.error.issues.map(i => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    fs.mkdirSync(path.dirname(csvFile), { recursive: true });
    fs.writeFileSync(taskFile, JSON.stringify(spec, null, 2) + '\n', { flag: 'wx' });
    const columns = ['sample_id', ...Object.keys(spec.input_schema ?? {})];
    fs.writeFileSync(csvFile, `${columns.join(',')}\n${columns.map(c => (c === 'sample_id' ? 'example' : placeholderFor(c))).join(',')}\n`, {
      flag: 'wx',
    });
    loadTaskFile(taskFile);
    console.log(
      [
        `wrote ${path.relative(process.cwd(), taskFile)} and ${path.relative(process.cwd(), csvFile)}`,
        '',
        'Next:',
        `  1. ${path.relative(process.cwd(), csvFile)}: one row per page to visit (sample_id = a short name for the row${columns.length > 1 ? `; ${columns.slice(1).join(', ')} fill the {{…}} in start_url` : ''})`,
        `  2. ${path.relative(process.cwd(), taskFile)}: replace each "${FILL_IN}" locator in the recipe with the element that shows the field`,
        '     (or delete "recipe" and set ANTHROPIC_API_KEY: Claude works it out; AGENT_RECORD=1 records a recipe)',
        '  3. npx bwa validate',
        `  4. npx playwright test --grep @${taskId}`,
      ].join('\n'),
    );
    return 0;
  },
});

export function starterSpec(taskId: string, url: string, fields: Array<{ name: string; type: string }>, tasksDir = settings.tasksDir): TaskSpecInput {
  const parsedUrl = new URL(url.replace(/\{\{[^}]*\}\}/g, 'x'));
  const columns = [...url.matchAll(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g)].map(m => m[1]!);
  return {
    $schema: schemaFrom(tasksDir),
    $comment: [
      'Written by bwa init. What to fill in:',
      `- recipe: each extract's "target" says where its field is shown — {"role": "heading", "name": "…"}, {"label": "…"}, {"text": "…"} or {"css": "…"}; "${FILL_IN}" is a placeholder`,
      '- goal and system_prompt: what Claude is told when it decides (with ANTHROPIC_API_KEY); the recipe needs no model',
      '- allowed_domains: every host the task may visit',
      '- auth_profile: the name of tasks/auth/<name>.json if the site needs a sign-in',
      `Reference: ${docPath('docs/task-spec.md', path.dirname(tasksDir))}`,
    ],
    task_id: taskId,
    start_url: url,
    system_prompt: `You collect facts from pages of ${parsedUrl.host} for an audit. Read values from the page; never guess.`,
    goal: `Take a screenshot of the page, then extract ${fields.map(f => f.name).join(', ')}.`,
    output_schema: Object.fromEntries(fields.map(f => [f.name, FIELD_TYPES[f.type]!.descriptor])),
    input_schema: Object.fromEntries(columns.map(c => [c, 'string'])),
    required_fields: fields.map(f => f.name),
    required_artifacts: ['page'],
    max_steps: 10 + 2 * fields.length,
    allowed_domains: [parsedUrl.port ? parsedUrl.host : parsedUrl.hostname],
    rate_limits: { default: 1 },
    recipe: [
      { action: 'screenshot', label: 'page' },
      ...fields.map(f => ({
        action: 'extract',
        field: f.name,
        target: { css: `${FILL_IN}: the element showing ${f.name}` },
        ...(FIELD_TYPES[f.type]!.extract ? { type: FIELD_TYPES[f.type]!.extract } : {}),
      })),
    ],
  };
}
