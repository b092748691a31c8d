import * as path from 'node:path';
import { z } from 'zod';
import { writeGenerated } from '../fs/generated-file';
import { TaskSpecSchema } from './schema';
import { PACKAGE_ROOT } from '../fs/package-root';

export const JSON_SCHEMA_FILE = path.join(PACKAGE_ROOT, 'schema', 'task.schema.json');

/** The editor-completion schema for tasks/*.json, generated from the one zod schema. */
export function renderTaskJsonSchema(): string {
  const schema = z.toJSONSchema(TaskSpecSchema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
  return JSON.stringify({ ...schema, title: 'bwa task spec', $id: 'https://bwa.local/task.schema.json' }, null, 2) + '\n';
}

if (require.main === module) writeGenerated(JSON_SCHEMA_FILE, renderTaskJsonSchema(), 'npm run schema');
