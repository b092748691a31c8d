import type { Browser, BrowserContextOptions } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { ScriptInput } from '../../../fixtures/model-server';
import type { PromptView } from '../../../fixtures/model-server/script-schema';
import { peopleProfileScript } from '../../../fixtures/model-scripts/people-profile';
import type { PersonTruth } from '../../../fixtures/sites/people/truth';
import { linksTo } from '../../../fixtures/model-scripts/prompt-reading';
import { sourceFromResult } from '../../../agent/recipe/compile';
import type { SourceRun } from '../../../agent/recipe/draft';
import { RecipeEntry } from '../../../agent/recipe/entry';
import { recipeFileFor } from '../../../agent/recipe/recipe-store';
import { ActionLogEntry, type Result } from '../../../agent/evidence/result-schema';
import type { DeciderMode } from '../../../agent/decide/select-decider';
import { recipeRecorder } from '../../../agent/recipe/record';
import { SampleSession } from '../../../agent/session';
import type { LoadedTask } from '../../../agent/task/load-task';
import type { Sample } from '../../../agent/task/samples';
import { readRunFile, sampleOf } from '../helpers/agent-env';
import { SITE } from '../helpers/sites';
import { tempDir } from '../helpers/temp';
import { CHROMIUM_ARGS, fallbackExecutable } from '../../../agent/browser/chromium';

export type People = Record<string, PersonTruth>;

export async function peopleTruth(): Promise<People> {
  return (await (await fetch(`${SITE.people}/__truth.json`)).json()).people;
}

export const personSample = (username: string) => sampleOf({ sample_id: username, username });

/** The compile source a finished in-process sample left in the reports folder. */
export function sourceOf(result: Result): SourceRun {
  const log = z.array(ActionLogEntry).parse(JSON.parse(readRunFile(result.task_id, result.sample_id, 'action_log.json')));
  return sourceFromResult(result, log);
}

/** A model run that reaches the profile the long way: a pause, a failed click, a search, a detour. */
export function searchScript(username: string): ScriptInput {
  const profile = peopleProfileScript(username) as { steps: unknown[] };
  return {
    ...profile,
    steps: [
      { tool: 'wait', args: { seconds: 0.2 } },
      { tool: 'click', target: { raw: 'e999' } },
      { tool: 'goto', args: { url: `${SITE.people}/search?q=${username}` } },
      {
        what: 'open the result that links to the profile',
        decide: (view: PromptView) => {
          const [result] = linksTo(view, new RegExp(`^/people/${username}$`));
          if (!result?.ref) throw new Error(`the page state shows no result linking to /people/${username}`);
          return { tool: 'click', target: { ref: result.ref } };
        },
      },
      { tool: 'click', target: { role: 'link', name: 'Repositories' } },
      { tool: 'go_back' },
      ...profile.steps,
    ],
  } as ScriptInput;
}

export function storedEntry(task: LoadedTask): RecipeEntry {
  return RecipeEntry.parse(JSON.parse(fs.readFileSync(recipeFileFor(task), 'utf8')));
}

export function writeEntry(task: LoadedTask, entry: unknown): void {
  const file = recipeFileFor(task);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(entry, null, 2));
}

/** Recipes are recorded as the fixture records them (AGENT_RECORD=1, self-heal repairs). */
/** What the fixture passes as `afterLoop`: AGENT_RECORD's recording. */
export const recordRecipe = recipeRecorder(options => SampleSession.prepare(options));

/** One sample through SampleSession in its own context, with the decider mode asked for (no fixture option needed). */
export async function runSampleAlone(
  browser: Browser,
  task: LoadedTask,
  sample: Sample,
  mode: DeciderMode,
  contextOptions: BrowserContextOptions = {},
): Promise<Result> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...contextOptions });
  try {
    const session = await SampleSession.prepare({
      task,
      sample,
      context,
      page: await context.newPage(),
      runId: process.env.AGENT_RUN_ID!,
      attempt: 0,
      deciderMode: mode,
      learn: false,
      afterLoop: recordRecipe,
    });
    return await session.run();
  } finally {
    await context.close();
  }
}

/** A people_profile sample (the username is its id) run alone. */
export const runOne = (browser: Browser, task: LoadedTask, username: string, mode: DeciderMode) =>
  runSampleAlone(browser, task, personSample(username), mode);

export const valuesOf = (result: Result) => Object.fromEntries(Object.entries(result.extracted).map(([k, f]) => [k, f.value]));

/**
 * A plain Playwright config beside an exported spec (bwa recipe export), as a user would write one to run it: this
 * machine's Chromium, no retries; returns its path.
 */
export function writeExportedSpecConfig(outDir: string, options: { workers: number; viewport?: { width: number; height: number } }): string {
  const file = path.join(outDir, 'playwright.config.js');
  const use = {
    launchOptions: { executablePath: fallbackExecutable(), args: CHROMIUM_ARGS },
    ...(options.viewport ? { viewport: options.viewport } : {}),
  };
  const config = { testDir: outDir, outputDir: tempDir('bwa-export-out-'), retries: 0, workers: options.workers, use };
  fs.writeFileSync(file, `module.exports = ${JSON.stringify(config)};\n`);
  return file;
}
