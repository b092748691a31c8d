import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { ActionLogEntry, Result } from '../evidence/result-schema';
import { ACTION_LOG_FILE, RESULT_FILE } from '../loop/recorder';
import { BwaInputError } from '../task/input-errors';
import type { SourceRun } from './draft';

export interface RunSample {
  /** What choosing needs: a sample still running (the one being recorded) has no result.json yet. */
  result: Pick<Result, 'sample_id' | 'status' | 'decider' | 'extracted'>;
  source: SourceRun;
}

const CROSS_CHECKS = 3;

/** Every sample of a task in a run folder that has both its result.json and action_log.json. */
export function readRunSamples(runFolder: string, taskId: string): RunSample[] {
  const dir = path.join(runFolder, taskId);
  if (!fs.existsSync(dir)) throw new BwaInputError('BWA_RECIPE_SOURCE', `${dir}: no samples of task ${taskId} in this run`);
  const samples: RunSample[] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    const resultFile = path.join(dir, name, RESULT_FILE);
    const logFile = path.join(dir, name, ACTION_LOG_FILE);
    if (!fs.existsSync(resultFile) || !fs.existsSync(logFile)) continue;
    const result = Result.safeParse(readJson(resultFile));
    const log = z.array(ActionLogEntry).safeParse(readJson(logFile));
    if (!result.success || !log.success) continue;
    const r = result.data;
    samples.push({ result: r, source: { runId: r.run_id, sampleId: r.sample_id, row: r.input, log: log.data, extracted: r.extracted } });
  }
  return samples;
}

/**
 * The sample to compile from (asked for, or the done one that read the most fields from the page, model runs
 * first: a field it never saw cannot be bound) and a few other done samples to check the recipe on.
 */
export function chooseSources(samples: readonly RunSample[], sampleId?: string): { source: SourceRun; others: SourceRun[] } {
  const done = samples.filter(s => s.result.status === 'done');
  let chosen: RunSample | undefined;
  if (sampleId) {
    chosen = samples.find(s => s.result.sample_id === sampleId);
    if (!chosen) throw new BwaInputError('BWA_RECIPE_SOURCE', `sample ${sampleId} has no result.json and action_log.json in this run`);
    if (chosen.result.status !== 'done')
      throw new BwaInputError('BWA_RECIPE_SOURCE', `sample ${sampleId} ended ${chosen.result.status}: only a done sample can become a recipe`);
  } else {
    chosen = [...done].sort((a, b) => score(b) - score(a))[0];
    if (!chosen) throw new BwaInputError('BWA_RECIPE_SOURCE', `no done sample in this run (${samples.length} samples found)`);
  }
  const others = done
    .filter(s => s !== chosen)
    .slice(0, CROSS_CHECKS)
    .map(s => s.source);
  return { source: chosen.source, others };
}

function score(sample: RunSample): number {
  const filled = Object.values(sample.result.extracted).filter(
    f => f.value !== null && f.value !== '' && !(Array.isArray(f.value) && f.value.length === 0),
  );
  return (sample.result.decider === 'model' ? 1000 : 0) + filled.length * 10 + filled.filter(f => f.provenance.source === 'dom').length;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
