import type { ActionLogEntry, ExtractedField } from '../evidence/result-schema';
import { actionHas, elementArguments, getAction } from '../actions/registry';
import { REF_PATTERN, refList } from '../actions/targets/target';
import { isReadSource } from '../loop/recorder';
import { SemanticLocator, type DocumentFactTarget } from '../task/locator-schema';
import type { TaskSpec } from '../task/schema';
import { pruneLog, type PruneLevel } from './prune-log';
import { mentionsAny, rowValues, shownForms, templateDeep, templateString, urlExpectation, type RowValue } from './templatize';

/** One step of a recipe being compiled: what to do, and what the binding replay must still work out. */
export interface DraftStep {
  action: string;
  /** Arguments other than the target, with row values templated. */
  args: Record<string, unknown>;
  /** The element as recorded at action time (row values templated); may be sample-specific. */
  target?: SemanticLocator;
  /** Where the element(s) named by ref sat on the source sample's page: finds them again while binding. */
  paths?: string[];
  /** A read of a document-section line: the fact, by where the page says it (replayed as such, no element). */
  document?: DocumentFactTarget;
  /** What this step read on the source sample (extract). */
  expect?: { field: string; value: unknown };
  expectUrl?: string;
  optional?: boolean;
  /** Where it came from in the source log, for messages. */
  from: string;
  /** A pause (wait with only seconds) before this step index: replayed as a wait for that step's element. */
  pauseFor?: number;
  /** The step left the page (its URL changed). */
  navigates?: boolean;
  /** Where it led, as the source sample recorded it: tells apart same-named links. */
  urlAfter?: string;
}

/** The source of a compile: one finished sample, as result.json and action_log.json describe it. */
export interface SourceRun {
  runId: string;
  sampleId: string;
  row: Record<string, string>;
  log: readonly ActionLogEntry[];
  extracted: Readonly<Record<string, ExtractedField>>;
}

export interface Draft {
  /** The page the loop opened first, with row values templated (the task's start_url, as it was filled). */
  startUrl?: string;
  steps: DraftStep[];
  /** Values only the model stated (done / save_progress): the binding replay looks for them on the final page. */
  stated: Array<{ field: string; value: unknown }>;
  rowFields: Record<string, string>;
  row: RowValue[];
  /** Every string specific to the sample: a locator or context holding one of them does not generalise. */
  sampleValues: string[];
  dropped: string[];
}

export function draftRecipe(task: TaskSpec, source: SourceRun, level: PruneLevel): Draft {
  const row = rowValues(source.row, Object.keys(task.input_schema));
  const { kept, dropped } = pruneLog(source.log, source.extracted, level);
  const sampleValues = [...new Set(Object.values(source.extracted).flatMap(f => shownForms(f.value)))].filter(v => !row.some(r => r.value === v));
  const steps: DraftStep[] = [];
  const unreplayable: string[] = [];
  let unreachable = false;
  for (const entry of kept) {
    if (entry.action.name === 'done' || entry.action.name === 'save_progress') continue;
    const step = draftStep(entry, row, sampleValues, source.extracted);
    const followed = followReadLink(step, entry, steps);
    if (unreachable && !step.navigates && !leavesPage(step)) {
      unreplayable.push(`${step.from}: on a page the recipe cannot reach`);
      continue;
    }
    unreachable = !followed && step.action === 'goto' && mentionsAny(String(step.args.url), sampleValues);
    if (unreachable) unreplayable.push(`${step.from}: its address belongs to this sample only`);
    else steps.push(...splitUpload(followed ?? step, Object.keys(task.input_schema)));
  }
  const pauses = placePauses(steps);
  const stated: Draft['stated'] = [];
  const rowFields: Record<string, string> = {};
  for (const [field, { value, provenance }] of Object.entries(source.extracted)) {
    if (isReadSource(provenance.source) || provenance.source === 'input') continue;
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    const fromRow = typeof value === 'string' ? row.find(r => r.value === value) : undefined;
    if (fromRow) rowFields[field] = `{{${fromRow.column}}}`;
    else stated.push({ field, value });
  }
  const start = source.log.find(e => e.decider === 'loop' && e.action.name === 'goto');
  const startUrl = typeof start?.action.args.url === 'string' ? templateString(start.action.args.url, row) : undefined;
  return {
    startUrl,
    steps: pauses.steps,
    stated,
    rowFields,
    row,
    sampleValues,
    dropped: [...dropped.map(d => `${describeEntry(d.entry)}: ${d.why}`), ...pauses.dropped, ...unreplayable].sort(byStep),
  };
}

function draftStep(entry: ActionLogEntry, row: RowValue[], sampleValues: string[], extracted: SourceRun['extracted']): DraftStep {
  const { target: rawTarget, ...rest } = entry.action.args;
  const args = templateDeep({ ...rest, ...recordedArgElements(entry) }, row);
  const step: DraftStep = { action: entry.action.name, args, from: describeEntry(entry) };
  const stale = elementArguments(entry.action.name)
    .map(arg => [arg, args[arg]] as const)
    .find(([, value]) => typeof value === 'string' && REF_PATTERN.test(value.trim()));
  if (stale)
    throw new Error(`${step.from}: its ${stale[0]} was a ref (${JSON.stringify(stale[1])}) with no element recorded, so it cannot be replayed`);
  if (entry.document) return { ...step, document: { document: entry.document.source, key: entry.document.key }, expect: expectOf(entry, extracted) };
  const recorded = recordedTarget(entry, rawTarget);
  const paths = entry.element_paths?.target;
  if (paths?.length) step.paths = [...paths];
  // Elements named one by one (refs of a list) are found again where they sat, or by the values they showed.
  const readByValue = entry.action.name === 'extract' && refList(rawTarget as never) !== undefined;
  if (recorded) step.target = templateDeep(recorded, row);
  else if (rawTarget !== undefined && !readByValue && !step.paths)
    throw new Error(`${step.from}: the element it acted on was not recorded (target ${JSON.stringify(rawTarget)}), so it cannot be replayed`);
  if (entry.action.name === 'extract') step.expect = expectOf(entry, extracted);
  if (entry.url_before !== entry.url_after && entry.url_after) {
    step.navigates = true;
    step.urlAfter = entry.url_after;
    step.expectUrl = urlExpectation(entry.url_after, sampleValues, row);
  }
  if (getAction(entry.action.name)?.replay === 'optional') step.optional = true;
  // Waiting for this sample's own data to show (a title it then read) is waiting for the page to load: on
  // another sample that text never appears. Replayed as a pause, i.e. a wait for the next step's element.
  if (step.action === 'wait' && typeof step.args.text === 'string' && mentionsAny(step.args.text, sampleValues)) {
    const { text: _sampleText, ...pause } = step.args;
    step.args = pause;
  }
  return step;
}

const expectOf = (entry: ActionLogEntry, extracted: SourceRun['extracted']) => {
  const field = String(entry.action.args.field);
  return { field, value: extracted[field]?.value ?? null };
};

/**
 * A goto to a URL the sample read from a link earlier is that sample's own address: on another sample the
 * same link holds another one. Replayed as a click on the link it was read from.
 */
function followReadLink(step: DraftStep, entry: ActionLogEntry, earlier: readonly DraftStep[]): DraftStep | undefined {
  if (entry.action.name !== 'goto' || typeof entry.action.args.url !== 'string') return undefined;
  const url = entry.action.args.url;
  const source = [...earlier]
    .reverse()
    .find(s => s.action === 'extract' && (s.target || s.paths) && typeof s.expect?.value === 'string' && sameAddress(s.expect.value, url));
  if (!source || earlier.slice(earlier.indexOf(source) + 1).some(s => s.navigates)) return undefined;
  return {
    action: 'click',
    args: {},
    target: source.target,
    paths: source.paths,
    from: `${step.from} (the link read by ${source.from})`,
    navigates: true,
    expectUrl: step.expectUrl,
  };
}

function sameAddress(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return false;
  }
}

/** Other element arguments (drag's `to`) as recorded at action time, in place of the refs the model gave. */
function recordedArgElements(entry: ActionLogEntry): Record<string, SemanticLocator> {
  const recorded: Record<string, SemanticLocator> = {};
  for (const [arg, locator] of Object.entries(entry.arg_locators ?? {})) {
    const parsed = SemanticLocator.safeParse(locator);
    if (parsed.success) recorded[arg] = parsed.data;
  }
  return recorded;
}

/** Refs die with their snapshot: the structured locator recorded at action time is what replays. */
function recordedTarget(entry: ActionLogEntry, rawTarget: unknown): SemanticLocator | undefined {
  const logged = SemanticLocator.safeParse(entry.locator);
  if (logged.success) return logged.data;
  const given = SemanticLocator.safeParse(rawTarget);
  if (given.success) return given.data;
  if (typeof rawTarget === 'string' && !REF_PATTERN.test(rawTarget.trim()) && !refList(rawTarget)) {
    const text = rawTarget.trim();
    return text.startsWith('css=') ? { css: text.slice(4) } : { text };
  }
  return undefined;
}

export function describeEntry(entry: ActionLogEntry): string {
  const sub = entry.sub_step ? `.${entry.sub_step}` : '';
  const what = entry.action.name === 'extract' ? ` ${String(entry.action.args.field)}` : entry.element ? ` ${entry.element}` : '';
  return `step ${entry.step}${sub} (${entry.action.name}${what})`;
}

/**
 * Files named by numbered input columns ({{attachment_1}}, {{attachment_2}}): another sample may have more or
 * fewer, so each column of the family is uploaded on its own — the first required, the others optional (an
 * empty column fails harmlessly).
 */
function splitUpload(step: DraftStep, columns: readonly string[]): DraftStep[] {
  const files = step.args.files;
  if (step.action !== 'upload' || !Array.isArray(files)) return [step];
  const family = (name: string) => /^\{\{\s*(.*?)_?(\d+)\s*\}\}$/.exec(name)?.[1];
  const stems = new Set(files.map(f => family(String(f))));
  const [stem] = stems;
  if (stems.size !== 1 || stem === undefined) return [step];
  const members = columns.filter(c => new RegExp(`^${stem}_?\\d+$`).test(c));
  if (members.length < files.length) return [step];
  return members.map((column, i) => ({
    ...step,
    args: { ...step.args, files: [`{{${column}}}`] },
    optional: i > 0 ? true : step.optional,
    from: `${step.from} (${column})`,
  }));
}

const stepNumber = (text: string) => Number(/^step (\d+)/.exec(text)?.[1] ?? 0);
const byStep = (a: string, b: string) => stepNumber(a) - stepNumber(b);

/** The step left its page: an action that always does, or one the source run saw navigate (a click on a link). */
const leavesPage = (step: DraftStep) => step.navigates || actionHas(step.action, 'leavesPage');
const isPause = (step: DraftStep) => actionHas(step.action, 'onlyWaits') && step.target === undefined && step.args.text === undefined;

/**
 * A pause the model took while a page was still loading is kept as a wait for the element the next step uses
 * (on the same page); a pause before a navigation, or with nothing after it, waited for nothing.
 */
function placePauses(steps: DraftStep[]): { steps: DraftStep[]; dropped: string[] } {
  const dropped: string[] = [];
  const kept: DraftStep[] = [];
  for (const [i, step] of steps.entries()) {
    if (!isPause(step)) {
      kept.push(step);
      continue;
    }
    const after = steps.slice(i + 1);
    const next = after.findIndex(s => s.target !== undefined || leavesPage(s));
    const target = next >= 0 ? after[next] : undefined;
    if (!target || target.target === undefined || leavesPage(target) || after.slice(0, next).some(isPause)) {
      dropped.push(
        `${step.from}: ${after.slice(0, Math.max(0, next)).some(isPause) ? 'merged into the next pause' : 'a pause that waits for nothing'}`,
      );
      continue;
    }
    kept.push({ ...step, optional: true, pauseFor: -1 });
  }
  // Indexes are known once the kept list is final.
  kept.forEach((step, i) => {
    if (step.pauseFor === -1) step.pauseFor = kept.findIndex((s, j) => j > i && s.target !== undefined);
  });
  return { steps: kept, dropped };
}
