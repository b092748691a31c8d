import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempDirFor } from '../lib/temp';

/** The task every throughput run measures: 58 tickets of the client-rendered tracker on 4103, plus 2 refs that do not exist. */
export const TASK = 'tracker_tickets';

export interface ResultFile {
  status: string;
  started_at: string;
  finished_at: string;
  usage: { model_calls: number; input_tokens: number; output_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number };
}

export function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

export function readResults(reports: string, runId: string): ResultFile[] {
  const dir = path.join(reports, 'runs', runId, TASK);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter(d => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'result.json')))
    .map(d => JSON.parse(fs.readFileSync(path.join(dir, d.name, 'result.json'), 'utf8')) as ResultFile);
}

export function countStatuses(statuses: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

export const statusText = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');

/** A tasks folder holding only this task and its first `count` samples (the full CSV when count is 60+). */
export function tasksDirWith(count: number): string {
  const dir = tempDirFor('tasks');
  fs.copyFileSync(path.resolve('tasks', `${TASK}.json`), path.join(dir, `${TASK}.json`));
  fs.mkdirSync(path.join(dir, 'inputs'));
  const lines = fs
    .readFileSync(path.resolve('tasks/inputs', `${TASK}.csv`), 'utf8')
    .trim()
    .split('\n');
  fs.writeFileSync(path.join(dir, 'inputs', `${TASK}.csv`), `${lines.slice(0, count + 1).join('\n')}\n`);
  return dir;
}
