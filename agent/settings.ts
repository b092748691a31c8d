import * as path from 'node:path';
import { env, type EnvValues } from './env/read';
import { RUN_ID_PATTERN, type EnvName } from './env/variables';
import { defaultTokenBudget } from './snapshot/tokens';

/**
 * Settings that are one variable each, by the name the code uses: the type and the meaning are the variable's own
 * (agent/env/variables.ts), never written again here.
 */
const PASSED_THROUGH = {
  tasksDir: 'AGENT_TASKS_DIR',
  reportsDir: 'AGENT_REPORTS_DIR',
  adHocUrl: 'AGENT_URL',
  judge: 'AGENT_JUDGE',
  judgeBatchSize: 'AGENT_JUDGE_BATCH',
  record: 'AGENT_RECORD',
  recordSamples: 'AGENT_RECORD_SAMPLES',
  invocationId: 'AGENT_INVOCATION_ID',
  taskBlockers: 'AGENT_TASK_BLOCKERS',
  stopAfterStartFailures: 'AGENT_STOP_AFTER',
  failOn: 'AGENT_FAIL_ON',
  trace: 'AGENT_TRACE',
  resumeChanged: 'AGENT_RESUME_CHANGED',
  decider: 'AGENT_DECIDER',
} as const satisfies Record<string, EnvName>;

type PassedThrough = { readonly [K in keyof typeof PASSED_THROUGH]: EnvValues[(typeof PASSED_THROUGH)[K]] };

/**
 * The run's own settings: the variables above, read lazily (workers inherit the main process's environment,
 * including AGENT_RUN_ID), and the values derived from them.
 */
export const settings = Object.defineProperties(
  {
    get runId(): string {
      const id = env.AGENT_RUN_ID;
      if (!id) throw new Error('AGENT_RUN_ID is not set: playwright.config.ts sets it; outside Playwright set it yourself');
      return id;
    },
    /** The page state's token budget: AGENT_SNAPSHOT_TOKENS, else 40% of the prompt budget AGENT_CONTEXT_WINDOW gives. */
    get snapshotTokens(): number {
      return env.AGENT_SNAPSHOT_TOKENS ?? defaultTokenBudget(env.AGENT_CONTEXT_WINDOW);
    },
    /** AGENT_DOWNLOAD_MAX_MB in bytes: the largest download a sample keeps. */
    get maxDownloadBytes(): number {
      return env.AGENT_DOWNLOAD_MAX_MB * 1024 * 1024;
    },
    /** AGENT_BROWSER_WS: every sample's browser comes from this Playwright browser server instead of a local Chromium. */
    get browserServer(): BrowserServerSettings | undefined {
      const wsEndpoint = env.AGENT_BROWSER_WS;
      return wsEndpoint ? { wsEndpoint, headers: env.AGENT_BROWSER_WS_HEADERS } : undefined;
    },
  },
  Object.fromEntries(Object.entries(PASSED_THROUGH).map(([key, name]) => [key, { enumerable: true, get: () => env[name] }])) as PropertyDescriptorMap,
) as PassedThrough & {
  readonly runId: string;
  readonly snapshotTokens: number;
  readonly maxDownloadBytes: number;
  readonly browserServer: BrowserServerSettings | undefined;
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
