import type { Browser, FullConfig } from '@playwright/test';
import { settings } from '../settings';
import { BwaInputError } from '../task/errors';
import { loadTaskFile, taskFiles, type LoadedTask } from '../task/load-task';
import { discoverTask, launchChromium } from './discover';
import { parseTestArgs, selectDiscoveryTasks } from './run-selection';

/**
 * Playwright globalSetup: discovers the samples of every selected task that has a discover block, before
 * the test files load (they need the samples to generate one test each). `--list`, UI mode and editors skip
 * globalSetup; the suite loader then shows a skipped placeholder saying how to discover.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  if (settings.adHocUrl) return;
  const discovering = readableTasks().filter(task => task.spec.discover);
  if (discovering.length === 0) return;
  const projects = config.projects.map(p => ({ name: p.name, testDir: p.testDir, testMatch: p.testMatch }));
  const selected = new Set(selectDiscoveryTasks(discovering.map(t => t.spec.task_id), parseTestArgs(config.argv), projects));
  let browser: Promise<Browser> | undefined;
  try {
    for (const task of discovering.filter(t => selected.has(t.spec.task_id))) {
      try {
        await discoverTask(task, { browser: () => (browser ??= launchChromium()), log: line => console.log(line) });
      } catch (error) {
        throw readable(error, task);
      }
    }
  } finally {
    if (browser) await (await browser).close().catch(() => {});
  }
}

/** A broken task file is reported by the test loader, with its file and field; discovery just skips it. */
function readableTasks(): LoadedTask[] {
  return taskFiles(settings.tasksDir).flatMap(file => {
    try {
      return [loadTaskFile(file)];
    } catch {
      return [];
    }
  });
}

function readable(error: unknown, task: LoadedTask): Error {
  const message = error instanceof BwaInputError ? `${error.code}\n${error.message}` : error instanceof Error ? error.message : String(error);
  const wrapped = new Error(`bwa: discovering the samples of task ${task.spec.task_id} failed — ${message}`);
  wrapped.stack = wrapped.message;
  return wrapped;
}
