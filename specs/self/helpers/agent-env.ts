import { test, type Browser } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startModelServer, type ModelServer, type Script, type ScriptInput } from '../../../fixtures/model-server';
import { signIn } from '../../../agent/setup/sign-in';
import { loadAuthProfile } from '../../../agent/task/auth-profile';
import { loadTaskFile, type LoadedTask } from '../../../agent/task/load-task';
import type { Sample } from '../../../agent/task/samples';
import { PROJECT_ROOT } from './nested-run';
import { setEnv, type EnvChanges } from './env';
import { tempDir } from './temp';

/** A scripted model server this worker's agent runs are pointed at, and what stops it and puts the environment back. */
export interface StartedModel {
  readonly server: ModelServer;
  restore(): Promise<void>;
}

/**
 * Starts a scripted model server and points this worker's agent runs at it and at a throwaway reports folder (plus
 * `extraEnv`), for a test that needs the model for part of its body; `useScriptedModel` for a file or describe block.
 */
export async function startScriptedModel(extraEnv: EnvChanges = {}): Promise<StartedModel> {
  const server = answeringStepSummaries(await startModelServer({ port: 0 }));
  const restoreEnv = setEnv({
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: server.url,
    AGENT_DECIDER: 'model',
    AGENT_REPORTS_DIR: tempDir('bwa-model-reports-'),
    AGENT_MODEL_RETRIES: '2',
    // The scripted server fails side requests nobody scripted; the tests of memory distillation turn it on.
    AGENT_MEMORY_DISTILL: 'off',
    ...extraEnv,
  });
  return {
    server,
    restore: async () => {
      restoreEnv();
      await server.close();
    },
  };
}

/** What a spec file (or describe block) of model runs has: its scripted model server, once beforeAll has started it. */
export interface ScriptedModel {
  readonly server: ModelServer;
}

/**
 * For the tests of a file or describe block: `startScriptedModel` in beforeAll, stopped in afterAll. Call it at the
 * top of the file or block, before hooks that use the server. `resetEachTest` clears its scripts and recorded
 * requests before every test.
 */
export function useScriptedModel(extraEnv: EnvChanges = {}, options: { resetEachTest?: boolean } = {}): ScriptedModel {
  let started: StartedModel | undefined;
  test.beforeAll(async () => {
    started = await startScriptedModel(extraEnv);
  });
  if (options.resetEachTest) test.beforeEach(() => scripted.server.reset());
  test.afterAll(async () => started?.restore());
  const scripted: ScriptedModel = {
    get server() {
      if (!started) throw new Error('the scripted model server starts in beforeAll: use it in a test or a later hook');
      return started.server;
    },
  };
  return scripted;
}

/** Runs past step 10 ask the fast model to condense the early steps: the scripted answer, for tests that script no other. */
const STEP_SUMMARY_RULE = {
  contains: 'Summarize these browser-agent steps',
  answer: 'FOUND: the pages opened and the values read so far\nGAPS: what the goal still needs\nNEXT: go on with the goal',
};

/**
 * Every script set on this server also answers step summaries (any run past step 10 asks for one), after its own
 * rules, so a script's own summary rule wins. Any other side request a script does not answer still fails.
 */
function answeringStepSummaries(server: ModelServer): ModelServer {
  const withSummaries = (script: ScriptInput | Script): ScriptInput => ({ ...script, text: [...(script.text ?? []), STEP_SUMMARY_RULE] });
  const setScript = server.setScript.bind(server);
  const setDefaultScript = server.setDefaultScript.bind(server);
  server.setScript = (taskId, sampleId, script, attempt) => setScript(taskId, sampleId, withSummaries(script), attempt);
  server.setDefaultScript = (taskId, script) => setDefaultScript(taskId, withSummaries(script));
  return server;
}

export function bundledTask(taskId: string, overrides: Record<string, unknown> = {}): LoadedTask {
  const spec = { ...JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'tasks', `${taskId}.json`), 'utf8')), ...overrides };
  delete spec.$schema;
  const dir = tempDir('bwa-tasks-');
  const file = path.join(dir, `${spec.task_id}.json`);
  fs.writeFileSync(file, JSON.stringify(spec));
  return loadTaskFile(file);
}

export function sampleOf(row: Record<string, string>): Sample {
  return { sample_id: row.sample_id!, row, line: 2, source: 'test' };
}

export function readRunFile(...parts: string[]): string {
  return fs.readFileSync(path.join(process.env.AGENT_REPORTS_DIR!, 'runs', process.env.AGENT_RUN_ID!, ...parts), 'utf8');
}

/** Signs in with a bundled auth profile (tasks/auth/<name>.json) the way globalSetup does; returns the storage state file. */
export async function signInBundled(browser: Browser, profile: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return signIn(browser, profile, loadAuthProfile(path.join(PROJECT_ROOT, 'tasks'), profile)!, env);
}
