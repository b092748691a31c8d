import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatZodIssues } from '../task/input-errors';
import { loadSamplesCsv } from '../task/samples';
import { TaskSpecSchema, type TaskSpec } from '../task/schema';
import { discoverBlockProblems, formatProblems } from '../discover/discover-columns';
import { PlanInput } from './plan-tool';
import { samplesCsvText } from '../discover/samples-csv';

export interface ValidPlan {
  spec: TaskSpec;
  /** The task as the model wrote it (what goes into tasks/<id>.json, defaults left implicit). */
  task: Record<string, unknown>;
  needsDiscovery: boolean;
  /** Rows for tasks/inputs/<id>.csv (empty when the samples are discovered). */
  samples: Array<Record<string, string>>;
  columns: string[];
  notes?: string;
}

export type PlanCheck = { ok: true; plan: ValidPlan } | { ok: false; problems: string };

/** The checks a hand-written task gets (schema, discover columns, samples CSV rules), as one message the model can act on. */
export function validatePlan(input: unknown): PlanCheck {
  const envelope = PlanInput.safeParse(input);
  if (!envelope.success) return { ok: false, problems: formatZodIssues(envelope.error) };
  const { task, needs_discovery: needsDiscovery, notes } = envelope.data;
  if ('recipe' in task) return { ok: false, problems: '  • task.recipe: leave it out — a model runs new tasks' };
  const { $schema: _ignored, ...written } = task;
  const parsed = TaskSpecSchema.safeParse(written);
  if (!parsed.success) return { ok: false, problems: formatZodIssues(parsed.error, 'task') };
  const spec = parsed.data;
  const problems = discoverBlockProblems(spec).map(p => ({ ...p, path: ['task', ...p.path] }));
  const samples = envelope.data.samples ?? [];
  if (needsDiscovery && !spec.discover)
    problems.push({ path: ['task', 'discover'], message: 'needs_discovery is true, so the task needs a discover block' });
  if (needsDiscovery && samples.length)
    problems.push({ path: ['samples'], message: 'leave samples out when needs_discovery is true: they are discovered' });
  if (!needsDiscovery && spec.discover)
    problems.push({ path: ['task', 'discover'], message: 'needs_discovery is false: give samples instead of a discover block' });
  if (!needsDiscovery && samples.length === 0)
    problems.push({ path: ['samples'], message: 'give at least one sample (or set needs_discovery with a discover block)' });
  if (problems.length) return { ok: false, problems: formatProblems(problems) };
  const columns = ['sample_id', ...Object.keys(spec.input_schema)];
  const rows = samples.map(row => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v === null ? '' : String(v)])));
  const sampleProblems = needsDiscovery ? undefined : checkSamples(spec, columns, rows);
  if (sampleProblems) return { ok: false, problems: sampleProblems };
  return { ok: true, plan: { spec, task: written, needsDiscovery, samples: rows, columns, notes } };
}

/** Rows checked by the CSV loader the tests use; its "line N" becomes the samples[i] the model wrote. */
function checkSamples(spec: TaskSpec, columns: string[], rows: Array<Record<string, string>>): string | undefined {
  const unknown = rows.flatMap((row, i) =>
    Object.keys(row)
      .filter(k => !columns.includes(k))
      .map(k => `  • samples[${i}].${k}: not a column of input_schema (columns: ${columns.join(', ')})`),
  );
  if (unknown.length) return unknown.join('\n');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bwa-plan-'));
  const file = path.join(dir, 'samples.csv');
  try {
    fs.writeFileSync(file, samplesCsvText(columns, rows));
    loadSamplesCsv(spec, file);
    return undefined;
  } catch (error) {
    const message = (error as Error).message
      .replace(`${file}: `, '')
      .replace(/line (\d+)/g, (_, n: string) => (n === '1' ? 'header' : `samples[${Number(n) - 2}]`));
    return `  • samples: ${message}`;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
