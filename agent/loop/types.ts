import type { BrowserContext, Page } from '@playwright/test';
import type { ActionPolicy, ActionResult } from '../actions/core/types';
import type { ContextTabs } from '../browser/context-tabs';
import type { Decider, PageView } from '../decide/types';
import type { SampleStatus } from '../evidence/result-schema';
import type { LoadedTask } from '../task/load-task';
import type { Sample } from '../task/samples';
import type { TaskSpec } from '../task/schema';
import type { SampleRecorder } from './recorder';
import type { AskedLook } from './vision-gate';

/**
 * One sample and where it runs: what a sample session is prepared with and what a recipe replay hands to
 * `PrepareSession` (said once here, so the recipe side need not import the session).
 */
export interface SampleSlot {
  task: LoadedTask;
  sample: Sample;
  context: BrowserContext;
  page: Page;
  runId: string;
  attempt: number;
  /** Where the sample's evidence goes (default: reports/runs/<run>/<task>/<sample>). */
  dir?: string;
  /** This decider instead of one chosen by deciderMode (recipe compilation replays this way). */
  decider?: (activePage: () => Page) => Decider;
  /** Add what the sample taught to the run memory (default true; off for replays that only check a recipe). */
  learn?: boolean;
}

export type StepRunner = <T>(title: string, body: () => Promise<T>) => Promise<T>;

export interface RunSampleInput {
  task: TaskSpec;
  sample: Sample;
  context: BrowserContext;
  tabs: ContextTabs;
  recorder: SampleRecorder;
  decider: Decider;
  policy: ActionPolicy;
  /** Produces the page view a model decides on (one snapshot per step); `asked`: the screenshot the model took last turn, to be shown. */
  view?: (tabs: ContextTabs, step: number, signal: AbortSignal, asked?: AskedLook) => Promise<PageView>;
  runStep?: StepRunner;
  /** Aborted when the sample's wall-clock budget (max_time_seconds) runs out. */
  signal: AbortSignal;
  actionTimeoutMs?: number;
  /** Told to the decider on its first step (e.g. "resumed from a checkpoint"). */
  initialNotices?: readonly string[];
  /** A batch judge runs after the samples: a done that lacks only its judgment may wait for it unless the model decided it. */
  batchJudgment?: boolean;
  /** Whether the start page could be reached (false only when the site or network failed, not for an error page). */
  onStartPage?: (reached: boolean, error: string) => Promise<void>;
  /** Told once, at the sample's first model answer: undefined when the API answered, its refusal when it rejected the request. */
  onModelAnswer?: (rejection: string | undefined) => Promise<void>;
}

/** One action as performed: its result and the active tab's address before and after. */
export interface Performed {
  result: ActionResult;
  urlBefore: string;
  urlAfter: string;
}

export interface SampleOutcome {
  status: SampleStatus;
  error: string | null;
}
