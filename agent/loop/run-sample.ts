import type { ActionCall } from '../actions/core/dispatch';
import type { ActionResult } from '../actions/core/types';
import { actionsWith } from '../actions/registry';
import { ModelAnswerError, ModelCallError } from '../decide/model-client';
import type { Decision, DecisionInput, HistoryEntry, PageView } from '../decide/types';
import { setTimeout as sleep } from 'node:timers/promises';
import { fillStartUrl } from '../task/row-template';
import { applyEffects } from './effects';
import { INTERACTIVE_ROLES } from '../snapshot/roles';
import { interactiveCount, shouldBreakBatch } from './batch';
import { perform, targetLabel } from './perform';
import { RecoveryMonitor } from './recovery';
import { terminate, type TerminationReason } from './terminate';
import type { AskedLook } from './vision-gate';
import type { RunSampleInput, SampleOutcome, StepRunner } from './types';

const directly: StepRunner = (_title, body) => body();

/** The ReAct cycle: observe → decide → act → record, until done, fail, or a limit. */
export async function runSample(input: RunSampleInput): Promise<SampleOutcome> {
  const { task, sample, recorder, decider, tabs } = input;
  const runStep = input.runStep ?? directly;
  const history: HistoryEntry[] = [];
  const monitor = new RecoveryMonitor(task.max_steps);
  let notices: string[] = [...(input.initialNotices ?? [])];
  let lastInput: DecisionInput | undefined;
  let asked: AskedLook | undefined;
  let primaryFailed = false;
  let modelAnswered = false;
  const firstModelAnswer = async (rejection: string | undefined) => {
    if (modelAnswered) return;
    modelAnswered = true;
    await input.onModelAnswer?.(rejection);
  };
  const end = (reason: TerminationReason, detail: string) =>
    terminate(reason, detail, {
      decider,
      recorder,
      primaryFailed,
      input: () => lastInput ?? decisionInput(input, 1, monitor, undefined, history, []),
    });

  const start = await openStartUrl(fillStartUrl(task.start_url, sample), input, runStep, history);
  const unreachable = !start.result.success && start.result.infra === true;
  await input.onStartPage?.(!unreachable, start.result.error ?? '');
  notices.push(...monitor.after({ url: start.urlAfter, call: { name: 'goto', args: {} }, result: start.result, newData: false }));
  if (unreachable) return end('network', `the start page failed${start.attempts > 1 ? ` ${start.attempts} times` : ''}: ${start.result.error ?? ''}`);

  for (let step = 2; ; step++) {
    if (input.signal.aborted) return end('max_time', `${task.max_time_seconds}s`);
    if (step > monitor.effectiveMaxSteps) return end('max_steps', `${monitor.effectiveMaxSteps} steps`);
    if (monitor.consecutiveInfraErrors >= task.max_consecutive_network_errors) return end('network', `${monitor.consecutiveInfraErrors} in a row`);
    if (monitor.checkpointRequested) {
      monitor.checkpointRequested = false;
      recorder.checkpoint(step - 1);
    }

    const view = decider.needsView && input.view ? await input.view(tabs, step, input.signal, asked) : undefined;
    asked = undefined;
    const stepNotices = [...notices, ...tabs.drainEvents(), ...monitor.budgetNotices(step)];
    notices = [];
    lastInput = decisionInput(input, step, monitor, view, history, stepNotices);
    let decision: Decision;
    try {
      decision = await decider.decide(lastInput, input.signal);
    } catch (error) {
      if (input.signal.aborted) return end('max_time', `${task.max_time_seconds}s`);
      if (!(error instanceof ModelCallError)) throw error;
      recorder.notes.push(error.message);
      if (error instanceof ModelAnswerError) {
        await firstModelAnswer(undefined);
        recorder.addUsage(error.usage);
        return end('model_answer', error.message);
      }
      if (error.rejected) await firstModelAnswer(error.message);
      primaryFailed = true;
      return end(error.rejected ? 'model_rejected' : 'model_failure', error.message);
    }
    if (decision.usage?.model_calls) await firstModelAnswer(undefined);
    recorder.addUsage(decision.usage);
    // Who decided this step: observing a refused done may already have handed the sample to the model.
    const decidedBy = decider.kind;
    if (decision.modelNote) recorder.notes.push(`step ${step}: ${decision.modelNote}`);
    if (decision.notices) notices.push(...decision.notices);
    if (decision.stuck) {
      recorder.notes.push(decision.stuck);
      // A step that failed because the site or browser failed is worth a retry in a fresh context, not a review.
      const lastFailedOnInfra = history.at(-1)?.result.infra === true;
      return { status: lastFailedOnInfra ? 'failed' : 'needs_review', error: decision.stuck };
    }

    const isLast = step >= monitor.effectiveMaxSteps;
    let before = decision.actions.length > 1 ? await interactiveCount(tabs.active) : 0;
    for (const [index, call] of decision.actions.entries()) {
      const performed = await perform(call, step, view, input, runStep, history, {
        sub: decision.actions.length > 1 ? index + 1 : undefined,
        decision: index === 0 ? decision : { ...decision, reflection: undefined, modelNote: undefined },
        notices: index === 0 ? stepNotices : undefined,
      });
      decider.observe?.(call, performed.result, performed.urlAfter);
      asked = lookTaken(call, performed.result, step, input) ?? asked;
      const applied = applyEffects(performed.result, {
        task,
        recorder,
        step,
        url: performed.urlAfter,
        canBounce: decider.kind !== 'recipe' && !isLast,
        deferJudgment: input.batchJudgment === true && decidedBy !== 'model',
      });
      notices.push(...applied.notices);
      notices.push(
        ...monitor.after({
          url: performed.urlBefore,
          page: index === 0 ? view?.signature : undefined,
          call,
          result: performed.result,
          newData: applied.newData,
          targetLabel: targetLabel(call, view),
          paginates: paginates(call, view),
        }),
      );
      if (applied.outcome) return applied.outcome;
      const remaining = decision.actions.length - index - 1;
      if (remaining > 0) {
        const after = await interactiveCount(tabs.active);
        const reason = shouldBreakBatch(call, performed, before, after);
        if (reason) {
          notices.push(`${remaining} more action(s) of your batch were not run: ${reason}. Look at the new page state.`);
          break;
        }
        before = after;
      }
    }
  }
}

/**
 * A screenshot the decider took to look at the page: the next decision shows it. One the task requires as evidence
 * (its label is a required artifact) is evidence only: the system prompt says so, and another label looks.
 */
function lookTaken(call: ActionCall, result: ActionResult, step: number, input: RunSampleInput): AskedLook | undefined {
  const artifact = result.effects?.artifact;
  if (call.name !== 'screenshot' || !result.success || artifact?.kind !== 'screenshot') return undefined;
  const label = artifact.label ?? artifact.filename;
  if (input.task.required_artifacts.includes(label)) return undefined;
  return { label, filename: artifact.filename, path: input.recorder.store.pathOf(artifact.filename), step };
}

const START_RETRY_DELAYS_MS = [1_000, 3_000];

/** A transient failure of the very first page (5xx, reset, timeout) is retried before anyone decides anything. */
async function openStartUrl(url: string, input: RunSampleInput, runStep: StepRunner, history: HistoryEntry[]) {
  let performed = await perform({ name: 'goto', args: { url } }, 1, undefined, input, runStep, history);
  let attempts = 1;
  for (const delay of START_RETRY_DELAYS_MS) {
    // A 429 has already been waited out and retried as the site's Retry-After asked (the dispatcher does that).
    if (performed.result.success || !performed.result.infra || performed.result.httpStatus === 429 || input.signal.aborted) break;
    await sleep(delay, undefined, { signal: input.signal }).catch(() => {});
    performed = await perform({ name: 'goto', args: { url } }, 1, undefined, input, runStep, history, { sub: history.length + 1 });
    attempts += 1;
  }
  return { ...performed, attempts };
}

function decisionInput(
  input: RunSampleInput,
  step: number,
  monitor: RecoveryMonitor,
  view: PageView | undefined,
  history: HistoryEntry[],
  notices: string[],
): DecisionInput {
  const finishOnly = monitor.forceFinish || step >= monitor.effectiveMaxSteps;
  return {
    step,
    maxSteps: monitor.effectiveMaxSteps,
    task: input.task,
    sample: input.sample,
    view,
    history,
    accumulated: input.recorder.accumulated,
    extractedSoFar: Object.fromEntries(Object.entries(input.recorder.fields).map(([k, f]) => [k, f.value])),
    checkedSoFar: Object.fromEntries(Object.entries(input.recorder.checks).map(([k, f]) => [k, f.value])),
    notices,
    allowedActions: finishOnly ? actionsWith('terminal') : undefined,
    visibleElements: monitor.needsElementList && view ? visibleElements(view) : undefined,
  };
}

function visibleElements(view: PageView): string[] {
  return [...view.elements.values()]
    .filter(e => e.ref && e.name && INTERACTIVE_ROLES.has(e.role))
    .slice(0, 60)
    .map(e => `[${e.ref}] ${e.role} ${JSON.stringify(e.name)}`);
}

/** The call's target is one of the page's pagination controls (by ref, or by the role and name it was given). */
function paginates(call: ActionCall, view: PageView | undefined): boolean {
  const target = call.args.target;
  if (!view?.pagination?.size || !target) return false;
  if (typeof target === 'string') return view.pagination.has(target);
  const { role, name } = target as Record<string, unknown>;
  return [...view.elements.values()].some(e => e.role === role && e.name === name && e.ref !== undefined && view.pagination?.has(e.ref));
}
