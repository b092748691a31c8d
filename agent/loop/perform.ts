import { dispatch, type ActionCall } from '../actions/dispatch';
import type { ActionEnv, ActionResult } from '../actions/types';
import type { Decision, HistoryEntry, PageView } from '../decide/types';
import { describeLocator } from '../task/locator-schema';
import type { RunSampleInput, StepRunner } from './run-sample';

export interface Performed {
  result: ActionResult;
  urlBefore: string;
  urlAfter: string;
}

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
  const { tracker, recorder, decider } = input;
  const urlBefore = safeUrl(tracker.active);
  const started = Date.now();
  const env: ActionEnv = {
    page: tracker.active,
    context: input.context,
    store: recorder.store,
    signal: input.signal,
    policy: input.policy,
    tabs: tracker,
    elements: view?.elements ?? new Map(),
    step,
  };
  const result = await runStep(stepTitle(step, call, view), async () => {
    const outcome = await dispatch(call, env, { timeoutMs: input.actionTimeoutMs });
    if (!outcome.success) throw new StepFailed(outcome);
    return outcome;
  }).catch(error => {
    if (error instanceof StepFailed) return error.result;
    throw error;
  });
  const urlAfter = safeUrl(tracker.active);
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
    url_before: urlBefore,
    url_after: urlAfter,
    duration_ms: Date.now() - started,
    notices: meta.notices?.length ? [...meta.notices] : undefined,
  });
  history.push({ step, action: call, result, reflection: meta.decision?.reflection, url: urlAfter });
  return { result, urlBefore, urlAfter };
}

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
  const target = call.args.target;
  let what = '';
  if (typeof target === 'string') {
    const known = view?.elements.get(target);
    what = known ? ` ${known.role}${known.name ? ` "${known.name}"` : ''}` : ` ${target}`;
  } else if (target && typeof target === 'object') what = ` ${describeLocator(target as never)}`;
  else if (call.args.url) what = ` ${String(call.args.url)}`;
  else if (call.args.label) what = ` "${String(call.args.label)}"`;
  if (call.name === 'extract' && call.args.field) what = ` ${String(call.args.field)}${what ? ` ←${what}` : ''}`;
  return `Step ${step} · ${call.name}${what}`.slice(0, 160);
}

export function safeUrl(page: { url(): string }): string {
  try {
    return page.url();
  } catch {
    return '';
  }
}
