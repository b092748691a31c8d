import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { TaskSpecSchema } from './schema';

export const JSON_SCHEMA_FILE = path.resolve(__dirname, '../../tasks/task.schema.json');

/** The editor-completion schema for tasks/*.json, generated from the one zod schema. */
export function renderTaskJsonSchema(): string {
  const schema = z.toJSONSchema(TaskSpecSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return JSON.stringify({ ...schema, title: 'bwa task spec', $id: 'https://bwa.local/task.schema.json' }, null, 2) + '\n';
}

function main(): void {
  const rendered = renderTaskJsonSchema();
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(JSON_SCHEMA_FILE) ? fs.readFileSync(JSON_SCHEMA_FILE, 'utf8') : '';
    if (current !== rendered) {
      console.error(`${path.relative(process.cwd(), JSON_SCHEMA_FILE)} is stale: run \`npm run schema\` and commit it`);
      process.exit(1);
    }
    console.log('tasks/task.schema.json is up to date');
    return;
  }
  fs.writeFileSync(JSON_SCHEMA_FILE, rendered);
  console.log(`wrote ${path.relative(process.cwd(), JSON_SCHEMA_FILE)}`);
}

if (require.main === module) main();
