import type { ActionCall } from '../actions/core/dispatch';
import type { ActionResult, KnownElement, PageStateAccess } from '../actions/core/types';
import type { Reflection } from '../evidence/reflection';
import type { FailedStep, Usage } from '../evidence/result-schema';
import type { SnapshotNode } from '../snapshot';
import type { Sample } from '../task/samples';
import type { TaskSpec } from '../task/schema';

/** What the agent currently sees; produced once per step, and refs are valid only against it. */
export interface PageView {
  url: string;
  title: string;
  text: string;
  elements: ReadonlyMap<string, KnownElement>;
  /** Every ref's node as the page state knew it (names, text, hints), for describing what an action was taken on. */
  nodes?: ReadonlyMap<string, SnapshotNode>;
  interactiveCount: number;
  /** What the page shows, as a digest (URL, scroll, every node's words, values and states): equal only when nothing changed. */
  signature: string;
  /** Refs of the controls that page forward (a pager's links, a "load more"), found by the page's structure. */
  pagination?: ReadonlySet<string>;
  /** For `expand` and `find`: what the next observation opens, searched in this one. */
  pageState?: PageStateAccess;
  /** The viewport as pixels, when the tree cannot show what the page does: it rides in the step's decision request. */
  screenshot?: Screenshot;
}

export interface Screenshot {
  png: Buffer;
  /** Why the page state is not enough here, in terms a screenshot resolves. */
  reasons: readonly string[];
  /** Only the rows of the viewport that hold what the tree lacks, full width; else the whole viewport. */
  band: boolean;
  /** The model's own screenshot, as saved (its filename): the image it asked to see. */
  taken?: string;
}

export interface HistoryEntry {
  step: number;
  action: ActionCall;
  result: ActionResult;
  reflection?: Reflection;
  url: string;
  /** The signature of the page state the action was decided on; unknown for the rest of a batch and without a look (a recipe). */
  page?: string;
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
  /** Values read into fields the output does not name (checks, an item's parts before save_progress): shown, never output. */
  checkedSoFar?: Readonly<Record<string, unknown>>;
  notices: readonly string[];
  /** Restricts the tools offered (e.g. only done and fail on the last step). */
  allowedActions?: readonly string[];
  /** After repeated failures: the visible interactive elements, so the model can pick another way. */
  visibleElements?: readonly string[];
}

export interface Decision {
  actions: ActionCall[];
  reflection?: Reflection;
  usage?: Usage;
  model?: string;
  /** A recipe step that failed or a script that ran out: why the decider cannot go on. */
  stuck?: string;
  /** Something about the model call a reviewer should see (a fallback model answered, a cut answer). */
  modelNote?: string;
  /** What the decider must be told on its next turn (calls of its answer it did not get to run). */
  notices?: string[];
}

export interface Consolidation {
  extracted: Record<string, unknown>;
  judgment?: Record<string, unknown>;
  usage: Usage;
  model: string;
}

export interface Decider {
  /** What decides, as the log records it: 'model', 'recipe', 'recipe-heal' while a recipe repairs a step, … */
  readonly kind: string;
  /** A decider that reads the page state needs an observation every step; a recipe does not. */
  readonly needsView: boolean;
  decide(input: DecisionInput, signal: AbortSignal): Promise<Decision>;
  /** One last call that turns the collected data into a best-effort final answer (model deciders only). */
  consolidate?(input: DecisionInput, reason: string, options: { preferFallback: boolean; signal: AbortSignal }): Promise<Consolidation>;
  /** Told the outcome of each action it asked for (a recipe uses it to detect a failed step). */
  observe?(call: ActionCall, result: ActionResult, pageUrl: string): void;
  /** A recipe's steps that failed so far, those it went on after included. */
  readonly failedSteps?: readonly FailedStep[];
}
