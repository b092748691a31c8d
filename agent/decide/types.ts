import type { ActionCall } from '../actions/dispatch';
import type { ActionResult, KnownElement } from '../actions/types';
import type { Reflection, Usage } from '../evidence/result-schema';
import type { Sample } from '../task/samples';
import type { TaskSpec } from '../task/schema';

/** What the agent currently sees; produced once per step, and refs are valid only against it. */
export interface PageView {
  url: string;
  title: string;
  text: string;
  elements: ReadonlyMap<string, KnownElement>;
  interactiveCount: number;
}

export interface HistoryEntry {
  step: number;
  action: ActionCall;
  result: ActionResult;
  reflection?: Reflection;
  url: string;
  /** Nudges and notices are context for one turn, never history to fit. */
  meta?: boolean;
}

export interface DecisionInput {
  step: number;
  maxSteps: number;
  task: TaskSpec;
  sample: Sample;
  view?: PageView;
  history: readonly HistoryEntry[];
  accumulated: Readonly<Record<string, unknown>>;
  extractedSoFar: Readonly<Record<string, unknown>>;
  notices: readonly string[];
  /** Restricts the tools offered (e.g. only done and fail on the last step). */
  allowedActions?: readonly string[];
}

export interface Decision {
  actions: ActionCall[];
  reflection?: Reflection;
  usage?: Usage;
  model?: string;
  /** A recipe step that failed or a script that ran out: why the decider cannot go on. */
  stuck?: string;
}

export interface Decider {
  readonly kind: 'recipe' | 'model' | string;
  /** A decider that reads the page state needs an observation every step; a recipe does not. */
  readonly needsView: boolean;
  decide(input: DecisionInput, signal: AbortSignal): Promise<Decision>;
  /** Told the outcome of each action it asked for (a recipe uses it to detect a failed step). */
  observe?(call: ActionCall, result: ActionResult, pageUrl: string): void;
}
