/**
 * How long a 10,000-row samples CSV takes to load and list (it is read in every Playwright worker).
 * Usage: npx tsx bench/inputs/run.ts [--rows 10000]
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadTaskFile } from '../../agent/task/load-task';
import { loadSamplesCsv } from '../../agent/task/samples';
import { median } from '../lib/stats';

const flag = process.argv.indexOf('--rows');
const rows = flag === -1 ? 10_000 : Number(process.argv[flag + 1]);
const task = loadTaskFile(path.resolve('tasks/people_profile.json'));
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bwa-csv-')), 'people_profile.csv');
fs.writeFileSync(file, `sample_id,username\n${Array.from({ length: rows }, (_, i) => `person-${i},"user, ${i}"`).join('\n')}\n`);
const times: number[] = [];
for (let i = 0; i < 7; i++) {
  const started = performance.now();
  const samples = loadSamplesCsv(task.spec, file);
  times.push(performance.now() - started);
  if (samples.length !== rows) throw new Error(`loaded ${samples.length} of ${rows}`);
}
const small = path.join(path.dirname(file), 'small.csv');
fs.writeFileSync(small, `sample_id,username\n${Array.from({ length: 100 }, (_, i) => `p${i},u${i}`).join('\n')}\n`);
const smallTimes: number[] = [];
for (let i = 0; i < 7; i++) {
  const started = performance.now();
  loadSamplesCsv(task.spec, small);
  smallTimes.push(performance.now() - started);
}
console.log(
  `${rows}-row CSV: load + validate median ${median(times).toFixed(1)} ms (7 runs, ${Math.round(rows / (median(times) / 1000))} rows/s); 100-row CSV: ${median(smallTimes).toFixed(2)} ms`,
);
