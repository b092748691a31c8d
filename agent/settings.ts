import * as path from 'node:path';
import { z } from 'zod';
import { modelSettings } from './decide/model-settings';
import { defaultTokenBudget } from './snapshot/tokens';

/**
 * The run's own settings from the environment: folders, run identity, judging, recording, when to stop.
 * Read lazily: workers inherit the main process's environment, including AGENT_RUN_ID. Not every variable is
 * read here — the model's in decide/model-settings.ts, Playwright's (AGENT_RETRIES, AGENT_WORKERS)
 * in playwright.config.ts, ANTHROPIC_API_KEY and SECRET_* where they are used; docs/environment.md lists every
 * variable a user sets (AGENT_INVOCATION_ID and AGENT_TASK_BLOCKERS are bwa's own, passed from the main process).
 */
export const settings = {
  get tasksDir(): string {
    return path.resolve(process.env.AGENT_TASKS_DIR ?? 'tasks');
  },
  get reportsDir(): string {
    return path.resolve(process.env.AGENT_REPORTS_DIR ?? 'reports');
  },
  get runId(): string {
    const id = process.env.AGENT_RUN_ID;
    if (!id) throw new Error('AGENT_RUN_ID is not set: playwright.config.ts sets it; outside Playwright set it yourself');
    return id;
  },
  get adHocUrl(): string | undefined {
    return process.env.AGENT_URL || undefined;
  },
  /** inline: each sample asks the model for its judgment; batch: recipe-collected samples are judged together after the run. */
  get judge(): 'inline' | 'batch' {
    const value = (process.env.AGENT_JUDGE ?? 'inline').toLowerCase();
    if (value === 'inline' || value === 'batch') return value;
    throw new Error(`AGENT_JUDGE must be inline or batch (got "${value}")`);
  },
  get judgeBatchSize(): number {
    return wholeNumber('AGENT_JUDGE_BATCH', 10, 1, 50);
  },
  /** AGENT_RECORD=1: done model-decided samples are compiled into the task's recipe during the run. */
  get record(): boolean {
    return process.env.AGENT_RECORD === '1';
  },
  /** AGENT_RECORD=1: how many model-decided samples must be done before the recipe is compiled over them. */
  get recordSamples(): number {
    return wholeNumber('AGENT_RECORD_SAMPLES', 2, 1, 10);
  },
  /** The page state's token budget: AGENT_SNAPSHOT_TOKENS, else 40% of the prompt budget AGENT_CONTEXT_WINDOW gives. */
  get snapshotTokens(): number {
    if (process.env.AGENT_SNAPSHOT_TOKENS) return wholeNumber('AGENT_SNAPSHOT_TOKENS', 0, 200, 200_000);
    return defaultTokenBudget(modelSettings().contextWindow);
  },
  /** Set once per `playwright test` invocation in the main process (like AGENT_RUN_ID): a resumed run starts afresh. */
  get invocationId(): string {
    return process.env.AGENT_INVOCATION_ID ?? 'none';
  },
  /** Written by globalSetup: task_id → why its samples cannot run (its site did not start, its sign-in failed). */
  get taskBlockers(): Record<string, string> {
    const raw = process.env.AGENT_TASK_BLOCKERS;
    return raw ? (JSON.parse(raw) as Record<string, string>) : {};
  },
  /** After this many samples of a task in a row could not reach its start page, the rest fail at once. */
  get stopAfterStartFailures(): number {
    return wholeNumber('AGENT_STOP_AFTER', 3, 1, 1000);
  },
  /**
   * AGENT_FAIL_ON: statuses that fail their test besides failed (e.g. "needs_review,partial_success"), so a CI
   * job's exit code follows them. Empty by default: they pass, labelled in every report.
   */
  get failOn(): Array<'partial_success' | 'needs_review'> {
    const allowed = ['partial_success', 'needs_review'] as const;
    const values = (process.env.AGENT_FAIL_ON ?? '')
      .split(',')
      .map(v => v.trim())
      .filter(Boolean);
    for (const value of values)
      if (!(allowed as readonly string[]).includes(value))
        throw new Error(`AGENT_FAIL_ON lists statuses from ${allowed.join(', ')}, comma-separated (got "${value}")`);
    return values as Array<(typeof allowed)[number]>;
  },
  /**
   * AGENT_TRACE: on records a trace for every sample (audit runs); off records none (a large run that keeps its
   * evidence in screenshots and logs: recording a trace costs CPU on every action even when it is thrown away).
   */
  get trace(): 'on' | 'off' | 'retain-on-failure' {
    const value = (process.env.AGENT_TRACE ?? 'retain-on-failure').toLowerCase();
    if (value === 'on' || value === 'off' || value === 'retain-on-failure') return value;
    throw new Error(`AGENT_TRACE must be on, off or retain-on-failure (got "${value}")`);
  },
  /** AGENT_BROWSER_WS: every sample's browser comes from this Playwright browser server instead of a local Chromium. */
  get browserServer(): BrowserServerSettings | undefined {
    const wsEndpoint = process.env.AGENT_BROWSER_WS?.trim();
    if (!wsEndpoint) return undefined;
    // The endpoint and the headers may carry credentials: messages name what is wrong, never the value.
    if (!WS_ENDPOINT.safeParse(wsEndpoint).success)
      throw new Error(
        'AGENT_BROWSER_WS must be the ws:// (or wss://, http://, https://) address a Playwright browser server printed, e.g. ws://10.0.0.5:3000/<path> (`bwa browser-server` prints it)',
      );
    return { wsEndpoint, headers: browserServerHeaders(process.env.AGENT_BROWSER_WS_HEADERS) };
  },
  get decider(): 'auto' | 'model' | 'recipe' {
    const value = (process.env.AGENT_DECIDER ?? 'auto').toLowerCase();
    if (value === 'auto' || value === 'model' || value === 'recipe') return value;
    throw new Error(`AGENT_DECIDER must be auto, model or recipe (got "${value}")`);
  },
};

export interface BrowserServerSettings {
  wsEndpoint: string;
  headers: Record<string, string>;
}

const WS_ENDPOINT = z.url({ protocol: /^(wss?|https?)$/ });
const HEADERS = z.record(z.string().min(1), z.string());

function browserServerHeaders(raw: string | undefined): Record<string, string> {
  if (!raw?.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new Error('AGENT_BROWSER_WS_HEADERS is not valid JSON: give an object of header name → text, e.g. {"Authorization":"Bearer <token>"}');
  }
  const parsed = HEADERS.safeParse(value);
  if (!parsed.success) {
    const where = parsed.error.issues.map(i => (i.path.length ? `"${i.path.join('.')}"` : 'the value')).join(', ');
    throw new Error(
      `AGENT_BROWSER_WS_HEADERS must be a JSON object of header name → text (${where} is not), e.g. {"Authorization":"Bearer <token>"}`,
    );
  }
  return parsed.data;
}

function wholeNumber(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name] ?? String(fallback);
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return value;
}

export function newRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .replace('T', '_');
  return `run_${stamp}_${Math.random().toString(16).slice(2, 6)}`;
}

export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function runDir(runId: string, reportsDir = settings.reportsDir): string {
  if (!RUN_ID_PATTERN.test(runId)) throw new Error(`AGENT_RUN_ID "${runId}" is not safe as a folder name (letters, digits, ".", "_", "-")`);
  return path.join(reportsDir, 'runs', runId);
}

export function sampleDir(runId: string, taskId: string, sampleId: string, reportsDir = settings.reportsDir): string {
  return path.join(runDir(runId, reportsDir), taskId, sampleId);
}
