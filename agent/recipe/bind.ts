import type { Page } from '@playwright/test';
import * as os from 'node:os';
import type { ActionCall } from '../actions/core/dispatch';
import { dispatch } from '../actions/core/dispatch';
import { actionHas } from '../actions/registry';
import type { ActionEnv, ActionResult } from '../actions/core/types';
import { recipeStepCall } from '../decide/recipe-decider';
import { fillTemplatesDeep } from '../task/row-template';
import type { Decider, Decision, DecisionInput } from '../decide/types';
import { EvidenceStore } from '../evidence/store';
import type { SemanticLocator } from '../task/locator-schema';
import { describeDocumentFact, describeLocator } from '../task/locator-schema';
import type { RecipeStep, TaskSpec } from '../task/schema';
import type { FieldBinding } from './entry';
import type { Draft, DraftStep } from './draft';
import { candidateLocators, isContent } from './candidates';
import { elementsAtPaths, elementsOf, narrowTo, pointsAt, recordedElements, recordedForms, seenBefore, type Handle } from './locate';
import { elementSetsShowing, elementsShowing } from './showing';
import { patternCandidates, sameValue } from './patterns';
import { mentionsAny, shownForms, templateDeep } from './templatize';

/** A way to do a step that worked on the source page; later ones are fallbacks when other samples disagree. */
export interface Alternative {
  target?: SemanticLocator;
  pattern?: string;
}

export interface BoundRecipe {
  steps: RecipeStep[];
  fields: Record<string, FieldBinding>;
  /** Per step index: every target/pattern that reproduced the source value (the first is in steps). */
  alternatives: Map<number, Alternative[]>;
  notes: string[];
}

const MAX_ALTERNATIVES = 4;
/** Stated lists are bound by searching the page for their items: more places to try when other samples will check. */
const STATED_ALTERNATIVES = 6;
/** A replayed pause waits at least this long for its element (the model's own pause may have been shorter). */
const PAUSE_FLOOR_S = 10;
const PAUSE_LIMIT_MS = 30_000;
const BIND_TIMEOUT_MS = 10_000;

/**
 * Replays a draft on the source sample's live page, one step at a time, and before each step that points at
 * an element works out a locator (and, for extract, a pattern) that reproduces what the sample recorded
 * without naming the sample's own values.
 */
export class BindingDecider implements Decider {
  readonly kind = 'recipe';
  readonly needsView = false;
  readonly bound: BoundRecipe = { steps: [], fields: {}, alternatives: new Map(), notes: [] };
  private readonly queue: DraftStep[];
  private index = 0;
  private failure: string | undefined;
  private current: DraftStep | undefined;
  private readonly scratch = new EvidenceStore(os.tmpdir() + '/bwa-bind-scratch');

  constructor(
    private readonly task: TaskSpec,
    private readonly draft: Draft,
    private readonly row: Readonly<Record<string, string>>,
    private readonly activePage: () => Page,
    /** Ways to keep per step: more only help when other samples will be checked. */
    private readonly maxAlternatives = MAX_ALTERNATIVES,
  ) {
    this.queue = [...draft.steps, { action: 'done', args: { extracted: { ...draft.rowFields } }, from: 'done' }];
    for (const [field, template] of Object.entries(draft.rowFields)) this.bound.fields[field] = { how: 'row', pattern: template };
  }

  get failed(): string | undefined {
    return this.failure;
  }

  async decide(_input: DecisionInput): Promise<Decision> {
    if (this.failure) return { actions: [], stuck: this.failure };
    const draft = this.queue[this.index];
    if (!draft) return { actions: [], stuck: 'the draft ended without done' };
    try {
      // A value the model only stated is read on the last page that shows it: before leaving each page, and at the end.
      if (draft.action === 'done' || draft.navigates || actionHas(draft.action, 'leavesPage')) await this.bindStated(draft.action === 'done');
      const step = draft.action === 'done' ? this.doneStep(draft) : await this.bindStep(draft);
      this.current = draft;
      this.bound.steps.push(step);
      if (draft.action === 'done')
        for (const binding of Object.values(this.bound.fields)) if (binding.how === 'row') binding.step = this.bound.steps.length - 1;
      return { actions: [recipeStepCall(step, this.row, `recipe step ${step.action}`)] };
    } catch (error) {
      this.failure = `${draft.from}: ${error instanceof Error ? error.message : String(error)}`;
      return { actions: [], stuck: this.failure };
    }
  }

  observe(call: ActionCall, result: ActionResult): void {
    const draft = this.current;
    this.index += 1;
    if (!draft || result.success || draft.optional) return;
    this.failure = `${draft.from} did not replay: ${result.error ?? result.description}`;
  }

  private doneStep(draft: DraftStep): RecipeStep {
    return { action: 'done', ...draft.args } as RecipeStep;
  }

  private async bindStep(draft: DraftStep): Promise<RecipeStep> {
    if (draft.pauseFor !== undefined) return this.bindPause(draft, this.queue[draft.pauseFor]!);
    const base = { action: draft.action, ...draft.args } as RecipeStep;
    if (draft.expectUrl) base.expect_url = draft.expectUrl;
    if (draft.optional) base.optional = true;
    if (draft.document) return this.bindDocumentRead(draft, base);
    // An extract of elements named one by one recorded no locator: they are found where they sat, or by the values they showed.
    if (!draft.target && !draft.paths && !draft.expect) return base;
    const page = this.activePage();
    const all = draft.args.all === true;
    const recorded = draft.target && fillTemplatesDeep(draft.target, this.row, draft.from);
    // The element the ref pointed at first; then what its role and name find now, or what shows the value read.
    const sources = [
      () => elementsAtPaths(page, draft.paths, recorded),
      async () => (recorded ? (await recordedElements(page, recorded, all, draft.urlAfter))?.elements : undefined),
      async () => (await this.elementsShowingValue(page, draft))?.elements,
    ];
    const tried: Handle[][] = [];
    let problem: Error | undefined;
    for (const source of sources) {
      const elements = await source();
      if (!elements?.length || (await seenBefore(elements, tried))) continue;
      tried.push(elements);
      try {
        return await this.bindTo(draft, base, elements, recorded);
      } catch (error) {
        problem ??= error instanceof Error ? error : new Error(String(error));
      }
    }
    if (problem) throw problem;
    if (draft.optional || (draft.expect && draft.expect.value === null)) return { ...base, target: draft.target };
    throw new Error(`${recorded ? describeLocator(recorded) : `what ${draft.from} read`} is not on the page any more`);
  }

  /** A locator (and for an extract, a pattern) for these elements that holds for other samples. */
  private async bindTo(draft: DraftStep, base: RecipeStep, elements: Handle[], recorded: SemanticLocator | undefined): Promise<RecipeStep> {
    const page = this.activePage();
    const all = draft.args.all === true;
    const forbidden = this.draft.sampleValues;
    const rowValues = this.draft.row.map(r => r.value);
    // Forms without a count in them first: "Checks" holds on every sample, "Checks 4" on some.
    const recordedAsIs = (draft.target ? recordedForms(draft.target) : [])
      .filter(form => !locatorMentions(form, this.draft.sampleValues))
      .sort((a, b) => literalWeight(a) - literalWeight(b));
    const keepRecorded = recordedAsIs.length > 0;
    if (draft.action !== 'extract' || !draft.expect) {
      const structural = (await candidateLocators(page, elements, forbidden, rowValues)).map(c => templateDeep(c, this.draft.row));
      // A control's label ("Blame", "Next") holds for every sample; a link named by content (a commit message) does
      // not, and neither does a position ("the second Details"), which the page's structure may explain (the failing one).
      const labelled = recordedAsIs.filter(form => !isContent(form) && form.nth === undefined);
      const rest = recordedAsIs.filter(form => !labelled.includes(form));
      const candidates = [...labelled, ...structural, ...rest.filter(form => form.nth === undefined), ...rest.filter(form => form.nth !== undefined)];
      // The model picked an element named by this sample's values: on another sample the one to pick carries that sample's row value.
      const wantTemplate = !keepRecorded && candidates.some(mentionsTemplate);
      const valid: Alternative[] = [];
      for (const candidate of candidates) {
        const enough = valid.length >= this.maxAlternatives && (!wantTemplate || valid.some(v => mentionsTemplate(v.target)));
        if (enough) break;
        if (await pointsAt(page, fillTemplatesDeep(candidate, this.row, draft.from), elements, all)) valid.push({ target: candidate });
      }
      if (wantTemplate) valid.sort((a, b) => Number(mentionsTemplate(b.target)) - Number(mentionsTemplate(a.target)));
      const chosen = valid[0];
      if (!chosen) throw new Error(`no locator that holds for other samples points at ${recorded ? describeLocator(recorded) : draft.from}`);
      this.bound.alternatives.set(this.bound.steps.length, valid);
      return { ...base, target: chosen.target };
    }
    return this.bindExtract(draft, base, elements, keepRecorded, rowValues);
  }

  private async bindExtract(draft: DraftStep, base: RecipeStep, elements: Handle[], keepRecorded: boolean, rowValues: string[]): Promise<RecipeStep> {
    const forbidden = this.draft.sampleValues;
    const page = this.activePage();
    const expect = draft.expect!;
    const all = draft.args.all === true;
    const values = all && Array.isArray(expect.value) ? expect.value : [expect.value];
    const narrowed = draft.args.attribute ? elements : await Promise.all(elements.map((el, i) => narrowTo(el, shownForms(values[i] ?? values[0]))));
    const candidates = await this.aimedFirst(draft, all, narrowed, elements, [
      ...(await candidateLocators(page, narrowed, forbidden, rowValues)).map(c => templateDeep(c, this.draft.row)),
      ...(keepRecorded && draft.target ? recordedForms(draft.target).filter(form => !locatorMentions(form, this.draft.sampleValues)) : []),
    ]);
    const { pattern: modelPattern, ...rest } = base as RecipeStep & { pattern?: string };
    const step: RecipeStep = { ...rest, ...(this.task.required_fields.includes(expect.field) ? {} : { missing: 'null' }) };
    const found: Alternative[] = [];
    for (const target of candidates) {
      if (found.length >= this.maxAlternatives) break;
      const filled = fillTemplatesDeep(target, this.row, draft.from);
      const raw = await rawText(page, filled, typeof draft.args.attribute === 'string' ? draft.args.attribute : undefined);
      if (raw === undefined) continue;
      const patterns = patternCandidates({
        raw,
        value: values[0],
        type: draft.args.type as never,
        modelPattern: modelPattern as string | undefined,
        sampleValues: [...forbidden, ...rowValues],
      });
      for (const pattern of patterns.length ? patterns : [undefined]) {
        if (await this.reproduces({ ...step, target: filled, ...(pattern ? { pattern } : {}) }, expect.value)) {
          found.push({ target, pattern });
          break;
        }
      }
    }
    const chosen = found[0];
    if (!chosen)
      throw new Error(`no locator and pattern read ${JSON.stringify(expect.value)} for ${expect.field} without naming this sample's own values`);
    const index = this.bound.steps.length;
    this.bound.alternatives.set(index, found);
    this.bound.fields[expect.field] = { step: index, how: 'dom', locator: describeLocator(chosen.target!), pattern: chosen.pattern };
    return withAlternative(step, chosen);
  }

  /** A read of what the page says about itself: the same place (meta tag, JSON-LD key, <time>) on every sample. */
  private async bindDocumentRead(draft: DraftStep, base: RecipeStep): Promise<RecipeStep> {
    const expect = draft.expect!;
    const where = describeDocumentFact(draft.document!);
    const step = { ...base, target: draft.document, ...(this.task.required_fields.includes(expect.field) ? {} : { missing: 'null' }) } as RecipeStep;
    if (!(await this.reproduces(step, expect.value))) throw new Error(`the page's ${where} no longer reads ${JSON.stringify(expect.value)}`);
    const pattern = typeof base.pattern === 'string' ? base.pattern : undefined;
    this.bound.fields[expect.field] = { step: this.bound.steps.length, how: 'dom', locator: where, ...(pattern ? { pattern } : {}) };
    return step;
  }

  /**
   * Locators that point at the element read come first: another element showing the same value on this sample (the
   * author who also merged) shows another one on the next. A list read (`all`) takes no position (`nth`).
   */
  private async aimedFirst(
    draft: DraftStep,
    all: boolean,
    narrowed: Handle[],
    elements: Handle[],
    candidates: SemanticLocator[],
  ): Promise<SemanticLocator[]> {
    const page = this.activePage();
    const aimed: SemanticLocator[] = [];
    const others: SemanticLocator[] = [];
    for (const candidate of candidates) {
      if (all && candidate.nth !== undefined) continue;
      const filled = fillTemplatesDeep(candidate, this.row, draft.from);
      const points = (await pointsAt(page, filled, narrowed, all)) || (await pointsAt(page, filled, elements, all));
      (points ? aimed : others).push(candidate);
    }
    return [...aimed, ...others];
  }

  /**
   * The model paused until the page finished loading: the recipe waits (bounded) for the element the next step
   * needs instead, which is also what the binding replay does now before going on.
   */
  private async bindPause(pause: DraftStep, next: DraftStep): Promise<RecipeStep> {
    const seconds = Math.max(PAUSE_FLOOR_S, Number(pause.args.seconds ?? 0));
    const deadline = Date.now() + Math.min(PAUSE_LIMIT_MS, seconds * 3_000);
    const page = this.activePage();
    const recorded = fillTemplatesDeep(next.target!, this.row, next.from);
    while (Date.now() < deadline && !(await recordedElements(page, recorded, false)) && !(await this.elementsShowingValue(page, next)))
      await page.waitForTimeout(250);
    const step = await this.bindStep({
      ...next,
      action: 'wait',
      args: { seconds },
      optional: true,
      pauseFor: undefined,
      expectUrl: undefined,
      from: pause.from,
    });
    return step;
  }

  /** Where the recorded locator finds nothing, an extract's value still shows where it was read. */
  private async elementsShowingValue(page: Page, draft: DraftStep): Promise<{ elements: Handle[] } | undefined> {
    if (!draft.expect || draft.args.attribute) return undefined;
    const items = Array.isArray(draft.expect.value) ? draft.expect.value.map(v => String(v)) : shownForms(draft.expect.value).slice(0, 1);
    const elements = items.length ? await elementsShowing(page, items).catch(() => undefined) : undefined;
    return elements ? { elements } : undefined;
  }

  /** Values the model only stated: bound to the element that shows them, as an extract before done. */
  private async bindStated(final: boolean): Promise<void> {
    const page = this.activePage();
    const forbidden = this.draft.sampleValues;
    const rowValues = this.draft.row.map(r => r.value);
    for (const { field, value } of this.draft.stated) {
      if (this.bound.fields[field]) continue;
      const items = Array.isArray(value) ? value.map(v => String(v)) : shownForms(value).slice(0, 1);
      const sets = items.length ? await elementSetsShowing(page, items).catch(() => [] as Handle[][]) : [];
      const all = Array.isArray(value);
      const type = typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : undefined;
      const valid: Alternative[] = [];
      const candidates: SemanticLocator[] = [];
      for (const set of sets) candidates.push(...(await candidateLocators(page, set, forbidden, rowValues)));
      for (const found of candidates) {
        if (valid.length >= (this.maxAlternatives > 1 ? STATED_ALTERNATIVES : 2)) break;
        const target = templateDeep(found, this.draft.row);
        const step = { action: 'extract', field, target, ...(all ? { all: true } : {}), ...(type ? { type } : {}) } as RecipeStep;
        if (await this.reproduces(step, value)) valid.push({ target });
      }
      const chosen = valid[0];
      if (!chosen) {
        if (!final) continue;
        this.bound.fields[field] = { how: 'unbound' };
        this.bound.notes.push(
          `${field}: the model stated ${JSON.stringify(value).slice(0, 80)} but no page it visited shows it; a replay leaves it to the model`,
        );
        continue;
      }
      const missing = this.task.required_fields.includes(field) ? {} : { missing: 'null' };
      const step = {
        action: 'extract',
        field,
        target: chosen.target,
        ...(all ? { all: true } : {}),
        ...(type ? { type } : {}),
        ...missing,
      } as RecipeStep;
      this.bound.fields[field] = { step: this.bound.steps.length, how: 'dom', locator: describeLocator(chosen.target!) };
      this.bound.alternatives.set(this.bound.steps.length, valid);
      this.bound.steps.push(step);
    }
  }

  /** Runs the extract for real (read-only) and compares with the value the sample recorded. */
  private async reproduces(step: RecipeStep, expected: unknown): Promise<boolean> {
    const call = recipeStepCall(step, this.row, `recipe step ${step.action}`);
    const page = this.activePage();
    const env: ActionEnv = {
      page,
      context: page.context(),
      store: this.scratch,
      signal: AbortSignal.timeout(BIND_TIMEOUT_MS),
      // Only reads run here: no download is kept.
      policy: { isAllowedUrl: () => true, resolvePlaceholders: t => t, inputDir: os.tmpdir(), beforeNavigation: async () => {}, maxDownloadBytes: 0 },
      tabs: { active: page, pages: [page], activate: () => page, drainEvents: () => [] },
      elements: new Map(),
      reader: 'recipe',
      step: 0,
    };
    const result = await dispatch(call, env, { timeoutMs: BIND_TIMEOUT_MS });
    return result.success && sameValue(result.effects?.extracted?.value, expected);
  }
}

export function withAlternative(step: RecipeStep, alternative: Alternative): RecipeStep {
  const { pattern: _old, ...rest } = step as RecipeStep & { pattern?: unknown };
  return { ...rest, target: alternative.target, ...(alternative.pattern ? { pattern: alternative.pattern } : {}) } as RecipeStep;
}

/** Counts and literal words around the inputs are what changes between samples: the form with fewest first. */
function literalWeight(locator: SemanticLocator): number {
  const text = JSON.stringify(locator);
  const shown = 'name' in locator ? (locator.name ?? '') : 'text' in locator ? locator.text : '';
  return (/\d/.test(text) ? 1000 : 0) + (shown.includes('{{') ? shown.replace(/\{\{[^}]+\}\}/g, '').length : 0);
}

const mentionsTemplate = (locator: SemanticLocator | undefined) => JSON.stringify(locator ?? {}).includes('{{');

function locatorMentions(locator: SemanticLocator, values: readonly string[]): boolean {
  return Object.values(locator).some(v => typeof v === 'string' && mentionsAny(v, values));
}

async function rawText(page: Page, target: SemanticLocator, attribute?: string): Promise<string | undefined> {
  const [first] = await elementsOf(page, target, true).catch(() => [] as Handle[]);
  if (!first) return undefined;
  if (attribute) return (await first.getAttribute(attribute)) ?? '';
  return first.evaluate(el => {
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return el.value;
    return (el as HTMLElement).innerText || el.textContent || '';
  });
}
