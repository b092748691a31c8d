import * as path from 'node:path';
import { env } from './env/read';
import { RUN_ID_PATTERN } from './env/variables';
import { defaultTokenBudget } from './snapshot/tokens';

/**
 * The run's own settings: folders, run identity, judging, recording, when to stop — typed views of the variables
 * agent/env/ reads and checks. Read lazily: workers inherit the main process's environment, including AGENT_RUN_ID.
 */
export const settings = {
  get tasksDir(): string {
    return env.AGENT_TASKS_DIR;
  },
  get reportsDir(): string {
    return env.AGENT_REPORTS_DIR;
  },
  get runId(): string {
    const id = env.AGENT_RUN_ID;
    if (!id) throw new Error('AGENT_RUN_ID is not set: playwright.config.ts sets it; outside Playwright set it yourself');
    return id;
  },
  get adHocUrl(): string | undefined {
    return env.AGENT_URL;
  },
  /** inline: each sample asks the model for its judgment; batch: recipe-collected samples are judged together after the run. */
  get judge(): 'inline' | 'batch' {
    return env.AGENT_JUDGE;
  },
  get judgeBatchSize(): number {
    return env.AGENT_JUDGE_BATCH;
  },
  /** AGENT_RECORD: done model-decided samples are compiled into the task's recipe during the run. */
  get record(): boolean {
    return env.AGENT_RECORD;
  },
  /** AGENT_RECORD: how many model-decided samples must be done before the recipe is compiled over them. */
  get recordSamples(): number {
    return env.AGENT_RECORD_SAMPLES;
  },
  /** The page state's token budget: AGENT_SNAPSHOT_TOKENS, else 40% of the prompt budget AGENT_CONTEXT_WINDOW gives. */
  get snapshotTokens(): number {
    return env.AGENT_SNAPSHOT_TOKENS ?? defaultTokenBudget(env.AGENT_CONTEXT_WINDOW);
  },
  /** Set once per `playwright test` invocation in the main process (like AGENT_RUN_ID): a resumed run starts afresh. */
  get invocationId(): string {
    return env.AGENT_INVOCATION_ID;
  },
  /** Written by globalSetup: task_id → why its samples cannot run (its site did not start, its sign-in failed). */
  get taskBlockers(): Record<string, string> {
    return env.AGENT_TASK_BLOCKERS;
  },
  /** After this many samples of a task in a row could not reach its start page, the rest fail at once. */
  get stopAfterStartFailures(): number {
    return env.AGENT_STOP_AFTER;
  },
  /** Statuses that fail their test besides failed, so a CI job's exit code follows them; none by default. */
  get failOn(): Array<'partial_success' | 'needs_review'> {
    return env.AGENT_FAIL_ON;
  },
  /**
   * AGENT_TRACE: on records a trace for every sample (audit runs); off records none (a large run that keeps its
   * evidence in screenshots and logs: recording a trace costs CPU on every action even when it is thrown away).
   */
  get trace(): 'on' | 'off' | 'retain-on-failure' {
    return env.AGENT_TRACE;
  },
  /** AGENT_BROWSER_WS: every sample's browser comes from this Playwright browser server instead of a local Chromium. */
  get browserServer(): BrowserServerSettings | undefined {
    const wsEndpoint = env.AGENT_BROWSER_WS;
    return wsEndpoint ? { wsEndpoint, headers: env.AGENT_BROWSER_WS_HEADERS } : undefined;
  },
  /** AGENT_RESUME_CHANGED: what a resume does with a sample done under an earlier version of its task (spec, recipe or row). */
  get resumeChanged(): 'rerun' | 'keep' {
    return env.AGENT_RESUME_CHANGED;
  },
  get decider(): 'auto' | 'model' | 'recipe' {
    return env.AGENT_DECIDER;
  },
};

export interface BrowserServerSettings {
  wsEndpoint: string;
  headers: Record<string, string>;
}

export function newRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .replace('T', '_');
  return `run_${stamp}_${Math.random().toString(16).slice(2, 6)}`;
}

export function runDir(runId: string, reportsDir = settings.reportsDir): string {
  if (!RUN_ID_PATTERN.test(runId)) throw new Error(`AGENT_RUN_ID "${runId}" is not safe as a folder name (letters, digits, ".", "_", "-")`);
  return path.join(reportsDir, 'runs', runId);
}

export function sampleDir(runId: string, taskId: string, sampleId: string, reportsDir = settings.reportsDir): string {
  return path.join(runDir(runId, reportsDir), taskId, sampleId);
}
