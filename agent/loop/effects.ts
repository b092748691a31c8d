import type { ActionResult } from '../actions/core/types';
import { judgmentProblems } from './judgment';
import type { SampleRecorder } from './recorder';
import { checkRequirements, describeShortfall, isMissing } from './requirements';
import { isCheck, isReadSource } from './recorder';
import type { DerivedValue } from '../actions/core/types';
import type { ReadDisagreement } from '../evidence/result-schema';
import type { TaskSpec } from '../task/schema';
import type { SampleOutcome } from './types';

export interface EffectContext {
  task: TaskSpec;
  recorder: SampleRecorder;
  step: number;
  url: string;
  /** A model can be sent back to fix a done that misses something; a recipe (or the last step) cannot. */
  canBounce: boolean;
  /** AGENT_JUDGE=batch: a done with every fact but no judgment ends here, and the batch judge gives the judgment. */
  deferJudgment?: boolean;
}

export interface Applied {
  outcome?: SampleOutcome;
  notices: string[];
  newData: boolean;
}

export const JUDGMENT_PENDING = 'awaiting the batch judgment (AGENT_JUDGE=batch): the judge project gives it after the samples';

/** The shortfall each sample's last done was sent back for. */
const bouncedFor = new WeakMap<SampleRecorder, string>();

/** Applies what an action produced to the sample's record; a done or fail may end the sample. */
export function applyEffects(result: ActionResult, ctx: EffectContext): Applied {
  const { recorder, task } = ctx;
  const effects = result.effects;
  if (!result.success || !effects) return { notices: [], newData: false };
  let newData = false;
  const readNotices: string[] = [];
  if (effects.extracted) {
    const { field, value, provenance } = effects.extracted;
    if (isCheck(task, field)) {
      recorder.setCheck(field, value, provenance);
    } else {
      const before = JSON.stringify(recorder.fields[field]?.value);
      const disagreedBefore = recorder.fields[field]?.disagreement?.note;
      recorder.setField(field, value, provenance);
      newData = before !== JSON.stringify(recorder.fields[field]?.value) && value !== null;
      const disagreement = recorder.fields[field]?.disagreement;
      if (disagreement && disagreement.note !== disagreedBefore) readNotices.push(disagreementNotice(disagreement));
    }
  }
  if (effects.progress) {
    const before = JSON.stringify(recorder.accumulated);
    recorder.saveProgress(effects.progress.data, effects.progress.note, ctx.step);
    newData = newData || before !== JSON.stringify(recorder.accumulated);
  }
  const terminal = effects.terminal;
  if (!terminal) return { notices: [...readNotices, ...itemNotices(task, recorder, effects.progress !== undefined)], newData };
  if (terminal.kind === 'fail') {
    recorder.notes.push(`agent gave up: ${terminal.reason}`);
    return { outcome: { status: 'failed', error: terminal.reason }, notices: [], newData };
  }
  const at = new Date().toISOString();
  for (const [field, value] of Object.entries(terminal.extracted))
    recorder.setField(field, value, { source: 'model', url: ctx.url, step: ctx.step, at, ...(terminal.note ? { note: terminal.note } : {}) });
  const unsourced = recordDerived(terminal.derived ?? {}, recorder, ctx, at);
  if (terminal.judgment) recorder.judgment = terminal.judgment;
  if (terminal.note) recorder.notes.push(terminal.note);
  const shortfall = checkRequirements(task, recorder.fieldValues(), recorder.store.artifacts);
  // What the judge can still give: the judgment, and required fields no step ever read (material_change is a verdict, not page text).
  const judgeCanFinish =
    !shortfall.missingArtifacts.length && !shortfall.itemsShort && shortfall.missingFields.every(field => recorder.fields[field] === undefined);
  if (ctx.deferJudgment && task.judgment_required && !recorder.judgment && judgeCanFinish) {
    recorder.judgmentPending = true;
    return { outcome: { status: 'needs_review', error: JUDGMENT_PENDING }, notices: [], newData };
  }
  const problems = [
    describeShortfall({ ...shortfall, itemsShort: undefined }),
    ...judgmentProblems(task, recorder.judgment ?? undefined),
    unsourced,
    unreadValues(task, recorder),
  ].filter(Boolean);
  const problemText = problems.join('; ');
  // A second done with the same shortfall is the agent saying the page truly lacks it: a person decides.
  const insisted = problems.length > 0 && bouncedFor.get(recorder) === problemText;
  if (problems.length && ctx.canBounce && !insisted) {
    bouncedFor.set(recorder, problemText);
    return {
      notices: [
        `You called done but ${problemText}. Collect what is missing (a field may be null only if the page truly lacks it), then call done again. ` +
          'If the page truly lacks it, call done again as it is: the sample is then flagged for a person to review.',
      ],
      newData,
    };
  }
  if (problems.length)
    return {
      outcome: { status: 'needs_review', error: insisted ? `${problemText} (confirmed by a second done)` : problemText },
      notices: [],
      newData,
    };
  if (shortfall.itemsShort) return { outcome: { status: 'partial_success', error: describeShortfall(shortfall) }, notices: [], newData };
  return { outcome: { status: 'done', error: null }, notices: [], newData };
}

/**
 * Values the model computed from earlier reads (a count, a yes/no over a list, a date difference), each recorded with
 * its rule and its sources as they stood. A derived value citing a field no extract read is a problem to fix.
 */
function recordDerived(derived: Record<string, DerivedValue>, recorder: SampleRecorder, ctx: EffectContext, at: string): string {
  const unread: string[] = [];
  for (const [field, { value, from, rule }] of Object.entries(derived)) {
    const sources = from.map(name => ({ name, read: recorder.recordedField(name) }));
    const missing = sources.filter(source => !source.read || !isReadSource(source.read.provenance.source)).map(source => source.name);
    if (missing.length) unread.push(`${field} is derived from ${missing.map(name => JSON.stringify(name)).join(', ')}, which no extract read`);
    recorder.setField(field, value, {
      source: 'derived',
      rule,
      sources: sources.map(({ name, read }) => ({
        field: name,
        value: read?.value ?? null,
        source: read?.provenance.source ?? 'none',
        ...(read?.provenance.step === undefined ? {} : { step: read.provenance.step }),
      })),
      url: ctx.url,
      step: ctx.step,
      at,
    });
  }
  return unread.length ? `${unread.join('; ')} (read it first, then derive)` : '';
}

/** read_values: every output value must come from a read (or be derived from reads), not only from what the model says. */
function unreadValues(task: TaskSpec, recorder: SampleRecorder): string {
  if (!task.read_values) return '';
  const said = Object.entries(recorder.fields)
    .filter(
      ([field, { value, provenance }]) =>
        Object.hasOwn(task.output_schema, field) && !isMissing(value) && (provenance.source === 'model' || provenance.source === 'stated'),
    )
    .map(([field]) => field);
  return said.length ? `values stated but not read from the page (the task asks for read values): ${said.join(', ')}` : '';
}

/** The model is told when its reads of a field disagree: both are recorded, and who settles it. */
function disagreementNotice(disagreement: ReadDisagreement): string {
  const settled = disagreement.rule === 'review' ? 'the sample goes to a person for review' : `the task's rule "${disagreement.rule}" settles it`;
  return `${disagreement.note}. Every read is recorded and ${settled}; reading the same place again replaces only that place's read.`;
}

/** expected_items: once enough items are saved, say so. */
function itemNotices(task: TaskSpec, recorder: SampleRecorder, saved: boolean): string[] {
  if (!saved || !task.expected_items) return [];
  const longest = Math.max(0, ...Object.values(recorder.accumulated).map(v => (Array.isArray(v) ? v.length : 0)));
  return longest >= task.expected_items ? [`All ${task.expected_items} expected items are collected. Call done now.`] : [];
}
