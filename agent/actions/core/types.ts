import type { BrowserContext, Page } from '@playwright/test';
import type { z } from 'zod';
import type { EvidenceStore } from '../../evidence/store';
import type { Artifact, Provenance } from '../../evidence/result-schema';
import type { SemanticLocator } from '../../task/locator-schema';

/** What the action layer needs to know about the task: where it may go, what it may read, which secrets exist. */
export interface ActionPolicy {
  isAllowedUrl: (url: string) => boolean;
  /**
   * Fills in {{secret:NAME}} and {{env:NAME}} for text to be typed into a field of the page at `url` (the only place a
   * secret value exists in memory on our side); throws a PlaceholderError when a secret does not belong on that site,
   * or a placeholder is not set.
   */
  resolvePlaceholders(text: string, url: string): string;
  /** Folder uploads may come from (the task's input folder). */
  inputDir: string;
  /** Waits out the per-host rate limit before a navigation to url. */
  beforeNavigation(url: string, signal: AbortSignal): Promise<void>;
  /** The site answered 429: every sample pacing its host holds off for `retryAfterSeconds` (waits here too). */
  onRateLimited?(url: string, retryAfterSeconds: number): Promise<void>;
  /** The largest download kept, in bytes (AGENT_DOWNLOAD_MAX_MB). */
  maxDownloadBytes: number;
}

/** The latest observation's view of an element, so messages and logs can name it the way the model saw it. */
export interface KnownElement {
  ref?: string;
  role: string;
  name?: string;
  text?: string;
  /** For elements the AI snapshot lacks (`c<N>`, `t<N>` refs): the CSS path observe() found them by. */
  selector?: string;
  /** For a `c<N>` ref: the element's identity in the page (snapshot/element-ids.ts), checked before acting on the path. */
  element?: string;
  /** For a line of the document section (`d<N>`): where the page says it, so a read finds it again. */
  fact?: { field: string; source: 'meta' | 'json-ld' | 'dom'; key: string };
}

export interface Tabs {
  /** The page actions act on. */
  readonly active: Page;
  readonly pages: readonly Page[];
  activate(index: number): Page;
  /** Announcements since the last call ("a new tab opened: …", "dialog answered: …"). */
  drainEvents(): string[];
  /** The URL a guard last refused for this tab (and forgets it), so goto can say "refused" rather than "aborted". */
  takeBlocked?(page: Page): string | undefined;
}

/** The latest page state, for the actions that only change what the next one shows (`expand`, `find`). */
export interface PageStateAccess {
  expand(ref: string): string;
  find(text: string): string;
}

/** Who reads what an action says: the model (it sees refs and the page state) or a person who wrote a recipe step. */
export type Reader = 'model' | 'recipe';

export interface ActionEnv {
  page: Page;
  context: BrowserContext;
  store: EvidenceStore;
  signal: AbortSignal;
  policy: ActionPolicy;
  tabs: Tabs;
  /** ref → element, from the latest snapshot; refs are only valid against it. */
  elements: ReadonlyMap<string, KnownElement>;
  /** Present when a model reads the page state (absent on recipe replay). */
  pageState?: PageStateAccess;
  /** Whose step this is: messages name refs and the page state to the model, locators to a recipe's author. */
  reader: Reader;
  step: number;
}

/** A value the model computed from fields it read, with how. */
export interface DerivedValue {
  value: unknown;
  from: string[];
  rule: string;
}

export type TerminalEffect =
  | {
      kind: 'done';
      extracted: Record<string, unknown>;
      derived?: Record<string, DerivedValue>;
      judgment?: Record<string, unknown>;
      note?: string;
    }
  | { kind: 'fail'; reason: string };

export interface ActionEffects {
  extracted?: { field: string; value: unknown; provenance: Provenance };
  progress?: { data: Record<string, unknown>; note?: string };
  terminal?: TerminalEffect;
  artifact?: Artifact;
}

export interface ActionResult {
  success: boolean;
  description: string;
  error?: string;
  /** Infrastructure failure (timeout, DNS, refused, crash, SSL, closed): counts toward the circuit breaker. */
  infra?: boolean;
  /** The HTTP status of the document the action ended on, when it was an error page (429, 5xx, 404…). */
  httpStatus?: number;
  /** The element acted on, as a semantic locator (recorded for recipe compilation). */
  element?: SemanticLocator;
  /** Elements named by other arguments (drag's `to`), by argument name, recorded like `element`. */
  argElements?: Record<string, SemanticLocator>;
  effects?: ActionEffects;
  /**
   * What the action changed that the page state's words need not show: the element acted on (its class or other
   * attributes, or those of what it holds) or drawn pixels (a canvas). The loop guard counts it as progress.
   */
  shownChange?: 'target' | 'pixels';
}

/** What an action says once the page has settled: a note for its description, and what it changed that words may not show. */
export interface SettledOutcome {
  note: string;
  shownChange?: ActionResult['shownChange'];
}

export type HandlerOutput = Omit<ActionResult, 'success'> & {
  success?: boolean;
  /**
   * What the action can only say once the page has settled (the data requests it started have ended): appended to
   * a successful result's description by the dispatcher, which always calls it once.
   */
  afterSettle?: () => Promise<SettledOutcome>;
};

export interface ActionDefinition<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  /** What the action checks before and after acting (listed in docs/actions.md): the model may rely on it. */
  verifies: string;
  schema: S;
  /** Its effect is the point of a task (data, evidence, input), not only getting somewhere: recipe pruning keeps it. */
  productive?: boolean;
  /** It sets a control's whole value: a later one on the same control replaces it (recipe pruning keeps the last). */
  setsValue?: boolean;
  /** Actions that may load a new document: the dispatcher waits for the page to settle afterwards. */
  navigates?: boolean;
  /** It leaves the page it started on (a new document or another tab): refs, plans and bindings made on that page no longer hold. */
  leavesPage?: boolean;
  /** It ends the sample (done, fail): the only actions offered on the last step. */
  terminal?: boolean;
  /** Its result must be seen before anything else is done (which items were saved, the file that arrived): a batch stops after it. */
  endsBatch?: boolean;
  /** It records data or evidence: doing it again and again on one page is collecting, not a loop. */
  collects?: boolean;
  /** It chooses something the page offers (a link, a button, an option): a hover just before it opened what it chose from. */
  chooses?: boolean;
  /** It may bring other content into view (a next-page click, a scroll, a key, an address): discovery counts the next save as a new page. */
  mayTurnPage?: boolean;
  /** It may send a form (a submit button, Enter): a value typed before it was used, even if the field is typed into again later. */
  maySubmit?: boolean;
  /** It only shows what the pointer is over (a hover menu): it mattered only if the next action chose from what it opened. */
  onlyReveals?: boolean;
  /** It only waits for the page: without an element or a text to wait for it is a bare pause, which a short route leaves out. */
  onlyWaits?: boolean;
  /** How a recipe replays it: 'optional' — a failing step does not fail the sample (it only helped the page along); 'never' — left out when a recipe is compiled. */
  replay?: 'optional' | 'never';
  /** How much it tends to matter for later decisions when old history is compacted (default 1; save/done 3, scroll 0). */
  historyWeight?: number;
  /** It reads the page or waits on it and starts nothing there (extract, screenshot, wait): the dispatcher waits for no requests after it. */
  readsOnly?: boolean;
  /** No later step depends on it (a read, a screenshot): a recipe goes on past it when it fails, and only it is lost. */
  independent?: boolean;
  /** Only changes what the next page state shows (expand, find): never touches the page, never replayed by a recipe. */
  pageStateOnly?: boolean;
  /** An action with its own, longer budget (a large download) says so; the dispatcher's timeout then stretches to it. */
  timeoutFor?(args: z.output<S>): number;
  handle(args: z.output<S>, env: ActionEnv): Promise<HandlerOutput>;
}

export function defineAction<S extends z.ZodObject>(definition: ActionDefinition<S>): ActionDefinition<S> {
  return definition;
}

/**
 * Thrown by handlers: what went wrong, and what to do next for whoever drives the step (the dispatcher adds
 * the advice for env.reader, so a recipe's author is never told to use a ref).
 */
export class ActionError extends Error {
  constructor(
    message: string,
    readonly infra = false,
    readonly advice: Partial<Record<Reader, string>> = {},
  ) {
    super(message);
  }
}

/**
 * No element matches the target: the one failure `extract`'s missing "null" turns into a null field. Several
 * matches, an "nth" past them or a selector the page cannot parse are the locator's fault, and stay failures.
 */
export class NotFoundError extends ActionError {}
