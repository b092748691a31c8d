import { test } from '@playwright/test';
import type { ChildProcess } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureFixtureSites, type RunningFixtureSites } from '../../../fixtures/serve';
import { killGroup, PROJECT_ROOT, startNested, type NestedRunResult } from './nested-run';
import { tempDir } from './temp';
import { readEnv } from '../../../agent/env/read';

export type Row = Record<string, string>;

export interface RecipeRun {
  task: string;
  sampleIds: readonly string[];
  reports: string;
  child: ChildProcess;
  done: Promise<NestedRunResult>;
}

/**
 * The samples a workflow's recipe acceptance run covers. `BWA_FULL=1` runs every row of the task's CSV; by default
 * every `stride`-th row plus the rows a test names as special cases, so `npm test` stays well inside CI's budget
 * while every kind of sample is still checked field by field.
 */
export function acceptanceSamples(task: string, specialCases: readonly string[], stride = 12): string[] {
  const rows = parse(fs.readFileSync(path.join(PROJECT_ROOT, 'tasks', 'inputs', `${task}.csv`), 'utf8'), { columns: true }) as Row[];
  const ids = rows.map(r => r.sample_id!);
  if (readEnv('BWA_FULL')) return ids;
  return ids.filter((id, i) => i % stride === 0 || specialCases.includes(id));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The bundled task's recipe over the given samples, as a real `playwright test --project=bwa` run in the
 * background: two workers, no traces — the run is checked, not browsed — and dot between the masking reporter and
 * ours (combined.csv), the order a command line's list needs when samples type a secret.
 */
export function startRecipeRun(task: string, sampleIds: readonly string[], env: Record<string, string | undefined> = {}): RecipeRun {
  const reports = tempDir(`bwa-${task}-recipe-`);
  const grep = `(?=.*@${task}\\b)(?=.* (${sampleIds.map(escapeRegExp).join('|')}) )`;
  const run = startNested({
    args: [
      '--project=bwa',
      '--grep',
      grep,
      '--workers=2',
      '--trace=off',
      `--reporter=${path.join(PROJECT_ROOT, 'agent/report/mask-reporter.ts')},dot,${path.join(PROJECT_ROOT, 'agent/report/reporter.ts')}`,
    ],
    env: {
      AGENT_REPORTS_DIR: reports,
      AGENT_RUN_ID: 'recipe',
      AGENT_DECIDER: 'recipe',
      ANTHROPIC_API_KEY: undefined,
      ANTHROPIC_BASE_URL: undefined,
      ...env,
    },
  });
  return { task, sampleIds, reports, ...run };
}

export function stopRecipeRun(run: RecipeRun | undefined): void {
  if (run && run.child.exitCode === null && run.child.signalCode === null) killGroup(run.child);
}

/** combined.csv of a finished recipe run, after checking the run passed and listed exactly the samples asked for. */
export async function recipeRows(run: RecipeRun): Promise<{ rows: Row[]; result: NestedRunResult }> {
  const result = await run.done;
  if (result.code !== 0) throw new Error(`the recipe run of ${run.task} exited ${result.code}:\n${result.output.slice(-3000)}`);
  const rows = parse(fs.readFileSync(path.join(run.reports, 'runs', 'recipe', run.task, 'combined.csv'), 'utf8'), { columns: true }) as Row[];
  const listed = rows.map(r => r.sample_id ?? '').sort();
  const asked = [...run.sampleIds].sort();
  if (JSON.stringify(listed) !== JSON.stringify(asked))
    throw new Error(`combined.csv of ${run.task} lists ${listed.length} samples, ${asked.length} were run: ${JSON.stringify({ listed, asked })}`);
  return { rows, result };
}

/**
 * For a reference-workflow spec file: no traces of its in-process contexts (each sample keeps its own evidence, and
 * traces cost a lot on a busy machine); its tests in order in one worker (the background run belongs to it); a
 * beforeAll that starts the fixture sites, then the recipe run `start` returns, which goes on while the file's
 * model cases run; an afterAll that stops both. Returns the run once beforeAll has started it.
 */
export function recipeRunInBackground(start: () => Promise<RecipeRun>): () => RecipeRun {
  let sites: RunningFixtureSites | undefined;
  let run: RecipeRun | undefined;
  test.use({ trace: 'off' });
  test.describe.configure({ mode: 'default', timeout: 600_000 });
  test.beforeAll(async () => {
    sites = await ensureFixtureSites();
    run = await start();
  });
  test.afterAll(async () => {
    stopRecipeRun(run);
    await sites?.close();
  });
  return () => {
    if (!run) throw new Error('the recipe run is started in beforeAll');
    return run;
  };
}
