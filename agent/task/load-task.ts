import * as fs from 'node:fs';
import * as path from 'node:path';
import { BwaInputError, formatZodIssues, lineAndColumn } from './input-errors';
import { jsonErrorOffset } from './json-error-offset';
import { jsonPathLines } from './json-lines';
import { TaskSpecSchema, type TaskSpec } from './schema';
import { stableHash } from './stable-json';

export interface LoadedTask {
  spec: TaskSpec;
  file: string;
  /** Hash of the spec without its recipe: a recipe recorded against another version of the task is stale. */
  hash: string;
  /** Hash of the spec's own recipe (null without one): with hash, the version of the task a sample ran. */
  recipeHash: string | null;
}

export function parseJsonFile(file: string, code: string): unknown {
  return readJsonFile(file, code).value;
}

/** The parsed JSON and its text (for the line of a key a later check finds wrong). */
export function readJsonFile(file: string, code: string): { value: unknown; text: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new BwaInputError(code, `${file}: cannot read (${(error as Error).message})`);
  }
  try {
    return { value: JSON.parse(text.replace(/^\uFEFF/, '')), text: text.replace(/^\uFEFF/, '') };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? '';
    const offset = jsonErrorOffset(text.replace(/^\uFEFF/, ''));
    const where = offset === undefined ? undefined : lineAndColumn(text, offset);
    throw new BwaInputError(code, `${file}${where ? `:${where.line}:${where.column}` : ''}: malformed JSON — ${message}`);
  }
}

export function loadTaskFile(file: string): LoadedTask {
  const { value, text } = readJsonFile(file, 'BWA_TASK_JSON');
  const parsed = TaskSpecSchema.safeParse(value);
  if (!parsed.success)
    throw new BwaInputError('BWA_TASK_SPEC', `${file}: invalid task spec\n${formatZodIssues(parsed.error, '', jsonPathLines(text))}`);
  const expected = path.basename(file, '.json');
  if (parsed.data.task_id !== expected)
    throw new BwaInputError(
      'BWA_TASK_SPEC',
      `${file}: invalid task spec\n  • task_id: "${parsed.data.task_id}" must equal the file name "${expected}"`,
    );
  const { recipe: _recipe, $schema: _schema, $comment: _comment, ...rest } = parsed.data;
  return { spec: parsed.data, file, hash: stableHash(rest), recipeHash: parsed.data.recipe ? stableHash(parsed.data.recipe) : null };
}

export function taskFiles(tasksDir: string): string[] {
  if (!fs.existsSync(tasksDir)) return [];
  return fs
    .readdirSync(tasksDir)
    .filter(name => name.endsWith('.json') && !name.startsWith('_') && name !== 'task.schema.json')
    .sort()
    .map(name => path.join(tasksDir, name));
}
