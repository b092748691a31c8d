import type { Browser, FullConfig } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkBrowserServer, openBrowser } from '../browser/remote';
import { modelSettings, unknownModelWarning } from '../decide/model-settings';
import { discoverTask } from '../discover/discover-samples';
import { EnvError } from '../env/env-error';
import { env, passOn, projectDir, secretsFromEnv } from '../env/read';
import { BWA_PROJECTS } from '../project/names';
import { parseTestArgs, selectSamples, selectTasks } from './run-selection';
import { runDir, settings } from '../settings';
import { authStatePath, loadAuthProfile } from '../task/auth-profile';
import { secretsTyped } from '../task/secret-scope';
import { BwaInputError } from '../task/input-errors';
import type { LoadedTask } from '../task/load-task';
import type { Sample } from '../task/samples';
import { loadSuite, type TaskWithSamples } from '../task/suite';
import { checkRecipeSteps } from '../recipe/check-steps';
import { changedTaskLines } from './resume';
import { stopOnBadEnvironment } from './run-env';
import { reporterWarning, unmaskedReporting } from './reporter-check';
import { startServers } from './servers';
import { signIn } from './sign-in';

/**
 * Playwright globalSetup: checks every environment variable (for a config of the user's own that skips the check) and
 * the browser server (AGENT_BROWSER_WS) once — either wrong stops the run before any sample — then readies what the selected tasks need before the test files load — their local servers
 * (`web_servers`), their sign-ins (`auth_profile`), their discovered samples (`discover`). Whatever fails blocks
 * only the tasks that needed it: their samples fail with the reason (AGENT_TASK_BLOCKERS), the others run.
 * `--list`, UI mode and editors skip globalSetup; the suite loader then says how to discover.
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  stopOnBadEnvironment();
  const browserServer = await checkBrowserServer();
  if (browserServer) console.log(browserServer);
  // With a key the model may decide: a bad AGENT_EFFORT stops the run here, before any sample, and an id bwa does
  // not know is said once.
  if (env.ANTHROPIC_API_KEY) {
    const warning = unknownModelWarning(modelSettings());
    if (warning) console.log(warning);
  }
  const suite = selected(runnableTasks(), config);
  const tasks = suite.map(entry => entry.task);
  const set = secretsFromEnv();
  // A profile that cannot be read blocks its task below, with its own message; here it only adds what it would type.
  const profileOf = (name: string) => {
    try {
      return loadAuthProfile(settings.tasksDir, name);
    } catch {
      return undefined;
    }
  };
  const typed = tasks.flatMap(task => secretsTyped(task.spec, task.spec.auth_profile ? profileOf(task.spec.auth_profile) : undefined));
  const unmasked = unmaskedReporting(
    config.reporter,
    typed.some(secret => set[secret] !== undefined),
  );
  if (unmasked) {
    console.error(unmasked);
    process.exit(2);
  }
  const lostEvidence = reporterWarning(config.reporter, suite.length > 0);
  if (lostEvidence) console.log(lostEvidence);
  if (!settings.adHocUrl)
    for (const line of changedTaskLines(runDir(settings.runId), selectedSamples(suite, config), settings.resumeChanged === 'keep'))
      console.log(`bwa: ${line}`);
  const blockers: Record<string, string> = {};
  const block = (task: LoadedTask, reason: string) => (blockers[task.spec.task_id] ??= reason);
  const log = (line: string) => console.log(line);

  const servers = await startServers(
    tasks.flatMap(t => t.spec.web_servers),
    projectDir(),
    log,
  );
  for (const task of tasks)
    for (const server of task.spec.web_servers) {
      const failure = servers.failures.get(server.url);
      if (failure) block(task, `task ${task.spec.task_id} needs the server at ${server.url}: ${failure}`);
    }

  let browser: Promise<Browser> | undefined;
  // The browser the samples get: the bwa project's options, as the user's config resolves them.
  const launch = () => (browser ??= openBrowser(config.projects.find(p => p.name === BWA_PROJECTS.tasks)?.use));
  try {
    await signInProfiles(
      tasks.filter(t => !blockers[t.spec.task_id]),
      launch,
      block,
    );
    if (!settings.adHocUrl)
      for (const task of tasks.filter(t => t.spec.discover && !blockers[t.spec.task_id])) {
        try {
          await discoverTask(task, { browser: launch, log });
        } catch (error) {
          block(task, `discovering the samples of task ${task.spec.task_id} failed — ${message(error)}`);
        }
      }
  } finally {
    if (browser) await (await browser).close().catch(() => {});
  }
  for (const reason of Object.values(blockers)) console.log(`bwa: ✗ ${reason}`);
  // Workers inherit the main process's environment: each sample of a blocked task fails at once with its reason.
  passOn('AGENT_TASK_BLOCKERS', JSON.stringify(blockers));
  return servers.stop;
}

/** Each profile signs in once for all its tasks; an imported storage state serves a profile without steps. */
async function signInProfiles(
  tasks: LoadedTask[],
  browser: () => Promise<Browser>,
  block: (task: LoadedTask, reason: string) => void,
): Promise<void> {
  const byProfile = new Map<string, LoadedTask[]>();
  for (const task of tasks)
    if (task.spec.auth_profile) byProfile.set(task.spec.auth_profile, [...(byProfile.get(task.spec.auth_profile) ?? []), task]);
  for (const [name, users] of byProfile) {
    try {
      const profile = loadAuthProfile(settings.tasksDir, name);
      if (profile) await signIn(await browser(), name, profile);
      else if (!fs.existsSync(authStatePath(name)))
        throw new Error(
          `auth_profile "${name}" has no sign-in steps (${path.relative(process.cwd(), path.join(settings.tasksDir, 'auth', `${name}.json`))}) and no imported storage state (${path.relative(process.cwd(), authStatePath(name))}): write the one, or \`npx bwa auth import ${name} <file>\` the other`,
        );
    } catch (error) {
      for (const task of users) block(task, message(error));
    }
  }
}

function selected(suite: TaskWithSamples[], config: FullConfig): TaskWithSamples[] {
  const projects = config.projects.map(p => ({ name: p.name, testDir: p.testDir, testMatch: p.testMatch }));
  const samplesOf = (taskId: string) => {
    const entry = suite.find(e => e.task.spec.task_id === taskId);
    return !entry || settings.adHocUrl ? [] : entry.samples.map(s => s.sample_id);
  };
  const ids = new Set(
    selectTasks(
      suite.map(e => e.task.spec.task_id),
      parseTestArgs(config.argv),
      projects,
      samplesOf,
    ),
  );
  return suite.filter(e => ids.has(e.task.spec.task_id));
}

/** The samples the command line selects of each selected task listed in a CSV (discovered ones are found afresh, or not yet). */
function selectedSamples(suite: TaskWithSamples[], config: FullConfig): Array<{ task: LoadedTask; samples: Sample[] }> {
  const projects = config.projects.map(p => ({ name: p.name, testDir: p.testDir, testMatch: p.testMatch }));
  const selection = parseTestArgs(config.argv);
  return suite
    .filter(({ task }) => !task.spec.discover)
    .map(({ task, samples }) => {
      const chosen = new Set(
        selectSamples(
          task.spec.task_id,
          samples.map(s => s.sample_id),
          selection,
          projects,
        ),
      );
      return { task, samples: samples.filter(s => chosen.has(s.sample_id)) };
    });
}

/**
 * The tasks a run can start, loaded as the generated tests load them (spec, recipe steps, samples): one that cannot
 * load is reported by the test loader with its file and field, and gets no server, sign-in or discovery here.
 */
function runnableTasks(): TaskWithSamples[] {
  const suite = loadSuite({ tasksDir: settings.tasksDir, adHocUrl: settings.adHocUrl, checkTask: checkRecipeSteps, onBroken: () => {} });
  return suite.filter(entry => !entry.error);
}

function message(error: unknown): string {
  return error instanceof BwaInputError || error instanceof EnvError
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
}
