import { dispatch, type ActionCall } from '../actions/core/dispatch';
import type { ActionEnv, ActionResult } from '../actions/core/types';
import type { Decision, HistoryEntry, PageView } from '../decide/types';
import { documentPlaceOf } from '../actions/targets/document-place';
import { elementPathsOf } from '../actions/targets/element-path';
import { safeUrl } from '../browser/page-url';
import type { SecretMasker } from '../secrets/masker';
import type { ActionLogEntry } from '../evidence/result-schema';
import { displayRole } from '../snapshot/serialize';
import { describeDocumentFact, describeLocator, isDocumentFactTarget } from '../task/locator-schema';
import type { Performed, RunSampleInput, StepRunner } from './types';

/** Acts (inside a test step), then writes the action log entry and the history entry. */
export async function perform(
  call: ActionCall,
  step: number,
  view: PageView | undefined,
  input: RunSampleInput,
  runStep: StepRunner,
  history: HistoryEntry[],
  meta: { sub?: number; decision?: Decision; notices?: string[] } = {},
): Promise<Performed> {
  const { tabs, recorder, decider } = input;
  const urlBefore = safeUrl(tabs.active);
  const started = Date.now();
  const env: ActionEnv = {
    page: tabs.active,
    context: input.context,
    store: recorder.store,
    signal: input.signal,
    policy: input.policy,
    tabs,
    elements: view?.elements ?? new Map(),
    pageState: view?.pageState,
    // Who reads the outcome: the model whenever it decides (the loop's own start-page goto included), else a recipe's author.
    reader: decider.needsView ? 'model' : 'recipe',
    step,
  };
  const elementPaths = await elementPathsOf(call, env);
  const documentPlace = documentPlaceOf(call, env);
  const result = await runStep(recorder.store.masker.text(stepTitle(step, call, view)), async () => {
    const outcome = await stopWhenAborted(dispatch(call, env, { timeoutMs: input.actionTimeoutMs }), input.signal);
    // The outcome is only known after acting: a nested step names it, so every report shows it under the action.
    await runStep(outcomeTitle(outcome, recorder.store.masker), async () => {
      if (!outcome.success) throw new StepFailed(outcome);
    });
    return outcome;
  }).catch(error => {
    if (error instanceof StepFailed) return error.result;
    throw error;
  });
  const urlAfter = safeUrl(tabs.active);
  recorder.record({
    step,
    sub_step: meta.sub,
    timestamp: new Date().toISOString(),
    decider: meta.decision ? decider.kind : 'loop',
    model: meta.decision?.model,
    reflection: meta.decision?.reflection,
    action: { name: call.name, args: call.args },
    outcome: { success: result.success, description: result.description, error: result.error, infra: result.infra },
    element: result.element ? describeLocator(result.element) : undefined,
    locator: result.element ? { ...result.element } : undefined,
    arg_locators: result.argElements
      ? Object.fromEntries(Object.entries(result.argElements).map(([arg, element]) => [arg, { ...element }]))
      : undefined,
    target_seen: targetSeen(call, view),
    element_paths: elementPaths,
    document: documentPlace,
    url_before: urlBefore,
    url_after: urlAfter,
    duration_ms: Date.now() - started,
    notices: meta.notices?.length ? [...meta.notices] : undefined,
    model_note: meta.decision?.modelNote,
  });
  // Only the first call of a turn was decided on a look at the page; the rest of a batch ran on pages nobody saw.
  const page = (meta.sub ?? 1) === 1 ? view?.signature : undefined;
  history.push({ step, action: call, result, reflection: meta.decision?.reflection, url: urlAfter, ...(page ? { page } : {}) });
  return { result, urlBefore, urlAfter };
}

/** The sample's wall clock applies to an action in flight too: its result is abandoned, the loop ends the sample. */
function stopWhenAborted(action: Promise<ActionResult>, signal: AbortSignal): Promise<ActionResult> {
  if (signal.aborted) return Promise.resolve(stopped());
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(stopped());
    signal.addEventListener('abort', onAbort, { once: true });
    action.then(
      result => {
        signal.removeEventListener('abort', onAbort);
        resolve(result);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // oxlint-disable-next-line typescript/prefer-promise-reject-errors -- the action's own failure, passed on as it came
        reject(error);
      },
    );
  });
}

const stopped = (): ActionResult => ({ success: false, description: 'stopped', error: 'stopped: the sample ran out of time (max_time_seconds)' });

/**
 * A failed action marks its test step as failed in the report (red, with the error) without failing the
 * test: the agent reads the failure and carries on.
 */
class StepFailed extends Error {
  constructor(readonly result: ActionResult) {
    super(result.error ?? result.description);
  }
}

export function stepTitle(step: number, call: ActionCall, view?: PageView): string {
  const target = targetLabel(call, view);
  let what = '';
  if (target) what = ` ${target}`;
  else if (call.args.url) what = ` ${String(call.args.url)}`;
  else if (call.args.label) what = ` "${String(call.args.label)}"`;
  if (call.name === 'extract' && call.args.field) what = ` ${String(call.args.field)}${what ? ` ←${what}` : ''}`;
  return `Step ${step} · ${call.name}${what}`.slice(0, 160);
}

/** The ref a call names, as the page state showed it: role, words and icon hint (never a ref or a CSS path). */
function targetSeen(call: ActionCall, view: PageView | undefined): ActionLogEntry['target_seen'] {
  const node = typeof call.args.target === 'string' ? view?.nodes?.get(call.args.target) : undefined;
  if (!node) return undefined;
  const hint = node.hint?.icon ?? node.hint?.label;
  return { role: displayRole(node), ...(node.name ? { name: node.name } : {}), ...(node.text ? { text: node.text } : {}), ...(hint ? { hint } : {}) };
}

/** The element a call names, as the page state showed it (`button "Prev"`), or its locator; undefined when it names none. */
export function targetLabel(call: ActionCall, view?: PageView): string | undefined {
  const target = call.args.target;
  if (typeof target === 'string') {
    const known = view?.elements.get(target);
    return known ? `${known.role}${known.name ? ` "${known.name}"` : ''}` : target;
  }
  if (isDocumentFactTarget(target)) return describeDocumentFact(target);
  if (target && typeof target === 'object') return describeLocator(target as never);
  return undefined;
}

/** "✓ Clicked link "Next"" or "✗ <error>": one line, secrets put back as placeholders (titles reach traces and reports). */
export function outcomeTitle(result: ActionResult, masker: SecretMasker): string {
  const text = result.success ? `✓ ${result.description}` : `✗ ${result.error ?? result.description}`;
  const line = masker.text(text).replace(/\s+/g, ' ').trim();
  return line.length > OUTCOME_TITLE_MAX ? `${line.slice(0, OUTCOME_TITLE_MAX - 1)}…` : line;
}

const OUTCOME_TITLE_MAX = 200;
