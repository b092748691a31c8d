import type { BrowserContext } from '@playwright/test';
import { dispatch, type ActionCall } from '../actions/dispatch';
import type { ActionEnv, ActionPolicy, ActionResult } from '../actions/types';
import type { ContextPages } from '../browser/page-tracker';
import type { Decider, Decision, HistoryEntry, PageView } from '../decide/types';
import type { Reflection, SampleStatus } from '../evidence/result-schema';
import { describeLocator } from '../task/locator-schema';
import type { Sample } from '../task/samples';
import type { TaskSpec } from '../task/schema';
import type { SampleRecorder } from './recorder';
import { checkRequirements, describeShortfall } from './requirements';

export type StepRunner = <T>(title: string, body: () => Promise<T>) => Promise<T>;

export interface RunSampleInput {
  task: TaskSpec;
  sample: Sample;
  context: BrowserContext;
  tracker: ContextPages;
  recorder: SampleRecorder;
  decider: Decider;
  policy: ActionPolicy;
  /** Produces the page view a model decides on (one snapshot per step). */
  view?: (tracker: ContextPages, step: number, signal: AbortSignal) => Promise<PageView>;
  runStep?: StepRunner;
  signal: AbortSignal;
  actionTimeoutMs?: number;
}

export interface SampleOutcome {
  status: SampleStatus;
  error: string | null;
}

const directly: StepRunner = (_title, body) => body();

/** The ReAct cycle: observe → decide → act → record, until done, fail, or a limit. */
export async function runSample(input: RunSampleInput): Promise<SampleOutcome> {
  const { task, sample, recorder, decider, tracker } = input;
  const runStep = input.runStep ?? directly;
  const history: HistoryEntry[] = [];
  const notices: string[] = [];
  const startCall: ActionCall = { name: 'goto', args: { url: fillStartUrl(task.start_url, sample) } };
  const started = await perform(startCall, 1, undefined, input, runStep, history);
  if (started.outcome) return started.outcome;

  for (let step = 2; step <= task.max_steps; step++) {
    if (input.signal.aborted) return { status: 'failed', error: `stopped: ${String(input.signal.reason ?? 'aborted')}` };
    const view = decider.needsView && input.view ? await input.view(tracker, step, input.signal) : undefined;
    const isLastStep = step === task.max_steps;
    const decision = await decider.decide(
      {
        step,
        maxSteps: task.max_steps,
        task,
        sample,
        view,
        history,
        accumulated: recorder.accumulated,
        extractedSoFar: recorder.fieldValues(),
        notices: [...notices, ...tracker.drainEvents()],
        allowedActions: isLastStep ? ['done', 'fail'] : undefined,
      },
      input.signal,
    );
    notices.length = 0;
    recorder.addUsage(decision.usage);
    if (decision.stuck) {
      recorder.notes.push(decision.stuck);
      return { status: 'needs_review', error: decision.stuck };
    }
    const calls = decision.actions;
    for (const [index, call] of calls.entries()) {
      const sub = calls.length > 1 ? index + 1 : undefined;
      const { result, outcome } = await perform(call, step, view, input, runStep, history, { sub, decision: index === 0 ? decision : undefined, isLastStep, notices });
      decider.observe?.(call, result, tracker.active.url());
      if (outcome) return outcome;
      if (!result.success) break;
    }
  }
  return exhausted(input);
}

interface PerformContext {
  sub?: number;
  decision?: Decision;
  isLastStep?: boolean;
  notices?: string[];
}

/** Acts, records the log entry and history, and applies the action's effects. */
async function perform(call: ActionCall, step: number, view: PageView | undefined, input: RunSampleInput, runStep: StepRunner, history: HistoryEntry[], ctx: PerformContext = {}) {
  const { tracker, recorder, decider } = input;
  const urlBefore = tracker.active.url();
  const started = Date.now();
  const result = await runStep(stepTitle(step, call), () => act(call, input, view, step));
  const urlAfter = tracker.active.url();
  recorder.record({
    step,
    sub_step: ctx.sub,
    timestamp: new Date().toISOString(),
    decider: ctx.decision ? decider.kind : 'loop',
    model: ctx.decision?.model,
    reflection: ctx.decision?.reflection,
    action: { name: call.name, args: call.args },
    outcome: { success: result.success, description: result.description, error: result.error, infra: result.infra },
    element: result.element ? describeLocator(result.element) : undefined,
    url_before: urlBefore,
    url_after: urlAfter,
    duration_ms: Date.now() - started,
  });
  history.push({ step, action: call, result, reflection: ctx.decision?.reflection as Reflection | undefined, url: urlAfter });
  const outcome = applyEffects(result, input, step, ctx.isLastStep ?? false, ctx.notices ?? []);
  return { result, outcome };
}

/** A value placed inside a URL is percent-encoded; a template that is the whole URL (e.g. "{{url}}") is used as is. */
export function fillStartUrl(startUrl: string, sample: Sample): string {
  const whole = /^\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}$/.exec(startUrl.trim());
  if (whole?.[1]) return sample.row[whole[1]] ?? '';
  return startUrl.replace(/\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g, (_, key: string) => encodeURIComponent(sample.row[key] ?? ''));
}

async function act(call: ActionCall, input: RunSampleInput, view: PageView | undefined, step: number): Promise<ActionResult> {
  const page = input.tracker.active;
  const env: ActionEnv = {
    page,
    context: input.context,
    store: input.recorder.store,
    signal: input.signal,
    policy: input.policy,
    tabs: input.tracker,
    elements: view?.elements ?? new Map(),
    step,
  };
  return dispatch(call, env, { timeoutMs: input.actionTimeoutMs });
}

function applyEffects(result: ActionResult, input: RunSampleInput, step: number, isLastStep: boolean, notices: string[]): SampleOutcome | undefined {
  const { recorder, task } = input;
  const effects = result.effects;
  if (!result.success || !effects) return undefined;
  if (effects.extracted) recorder.setField(effects.extracted.field, effects.extracted.value, effects.extracted.provenance);
  if (effects.progress) recorder.saveProgress(effects.progress.data, effects.progress.note, step);
  const terminal = effects.terminal;
  if (!terminal) return undefined;
  if (terminal.kind === 'fail') {
    recorder.notes.push(`agent gave up: ${terminal.reason}`);
    return { status: 'failed', error: terminal.reason };
  }
  const at = new Date().toISOString();
  for (const [field, value] of Object.entries(terminal.extracted)) recorder.setField(field, value, { source: 'model', url: input.tracker.active.url(), step, at });
  if (terminal.judgment) recorder.judgment = terminal.judgment;
  if (terminal.note) recorder.notes.push(terminal.note);
  const shortfall = checkRequirements(task, recorder.fieldValues(), recorder.store.artifacts);
  const missing = shortfall.missingFields.length > 0 || shortfall.missingArtifacts.length > 0;
  if (missing && !isLastStep && input.decider.kind !== 'recipe') {
    notices.push(`You called done but ${describeShortfall(shortfall)}. Collect them (or set a field to null only if the page truly lacks it), then call done again.`);
    return undefined;
  }
  if (missing) return { status: 'needs_review', error: describeShortfall(shortfall) };
  if (shortfall.itemsShort) return { status: 'partial_success', error: describeShortfall(shortfall) };
  return { status: 'done', error: null };
}

function exhausted(input: RunSampleInput): SampleOutcome {
  const hasData = Object.keys(input.recorder.fieldValues()).length > 0;
  const error = `max_steps (${input.task.max_steps}) reached without done`;
  return { status: hasData ? 'partial_success' : 'failed', error };
}

export function stepTitle(step: number, call: ActionCall): string {
  const target = call.args.target;
  const what =
    typeof target === 'string' ? ` ${target}` : target && typeof target === 'object' ? ` ${describeLocator(target as never)}` : call.args.url ? ` ${String(call.args.url)}` : call.args.label ? ` "${String(call.args.label)}"` : call.args.field ? ` ${String(call.args.field)}` : '';
  return `Step ${step} · ${call.name}${what}`.slice(0, 160);
}
