import type { Locator } from '@playwright/test';
import { z } from 'zod';
import type { Provenance } from '../evidence/result-schema';
import { describeLocator, type SemanticLocator } from '../task/locator-schema';
import { applyPattern, readTyped, VALUE_TYPES, type ReadConventions, type ValueType } from './values/coerce';
import { languageDayFirst } from './values/dates';
import { decimalCommaOf } from './values/numbers';
import { emptyReadMessage, readElement, selectorAlternatives, type ElementRead } from './values/read-element';
import { readDocumentFact } from './values/document-read';
import { isDocumentRef, REF_PATTERN, refList, resolveTarget, TargetArg, type ResolvedTarget } from './targets/target';
import { ActionError, defineAction, type ActionEnv } from './core/types';

export const extract = defineAction({
  name: 'extract',
  readsOnly: true,
  historyWeight: 2,
  collects: true,
  productive: true,
  description: 'Read a field from an element, recorded with its source.',
  verifies:
    'The element exists (with missing "null", absence is null); the text matches the pattern and the type; an empty text or attribute is a failure naming what else the element has (its text, other attributes). With missing "null", an absent element, an empty text and a pattern that does not match are null, said so. Dates and numbers are read in the page\'s language; the record keeps the words read, the element\'s text and which element of a selector list or ref list each part came from.',
  schema: z.object({
    field: z.string().min(1).describe('Output field name'),
    target: TargetArg,
    pattern: z.string().optional().describe('Regex; group 1 (or the match) is the value'),
    type: z.enum(VALUE_TYPES).optional().describe('Default string; date = YYYY-MM-DD'),
    attribute: z.string().optional().describe('Instead of the text, e.g. "href"'),
    exact: z.boolean().optional().describe('Keep whitespace as is'),
    missing: z.enum(['error', 'null']).optional().describe('"null": absent or empty gives null'),
    all: z.boolean().optional().describe('Every match, as a list (several elements: their refs as target, "e12 e15")'),
  }),
  async handle(args, env) {
    const { field, target, missing } = args;
    if (typeof target === 'string' && isDocumentRef(target.trim())) return readDocumentFact({ ...args, ref: target.trim() }, env);
    let read: ReadTarget;
    try {
      read = await resolveRead(target, Boolean(args.all), env);
    } catch (error) {
      // Only an element that is not there is a null field; a tab that is gone is a failure.
      if (missing !== 'null' || (error instanceof ActionError && error.infra)) throw error;
      const provenance = domProvenance(env, typeof target === 'string' ? target : describeLocator(target));
      return { description: `${field} = null (element not on the page)`, effects: { extracted: { field, value: null, provenance } } };
    }
    const reads: PartRead[] = [];
    for (const element of read.elements) reads.push(await readPart(element, args, read.alternatives));
    const values = reads.map(part => part.value);
    const nothing = values.every(v => v === null);
    const failed = reads.find(part => part.value === null && part.why !== 'empty' && part.why !== 'no match');
    if (failed?.why === 'not a type' && missing !== 'null') throw new ActionError(failed.message ?? '');
    const emptyPart = reads.find(part => part.value === null);
    if (emptyPart && nothing && missing !== 'null') {
      if (emptyPart.why === 'no match') throw new ActionError(emptyPart.message ?? '');
      throw new ActionError(await emptyReadMessage(emptyPart.locator, field, emptyPart.label, args.attribute, emptyPart.element.raw === null));
    }
    const value = args.all ? values : values[0];
    const ref = typeof target === 'string' && REF_PATTERN.test(target) ? target : undefined;
    const provenance = partsProvenance(env, read, reads, ref);
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 200)) : JSON.stringify(value);
    return {
      description: `${field} = ${shown}${nullNote(reads, Boolean(args.all))}${readingNote(reads)} (from ${read.label})`,
      element: read.element,
      effects: { extracted: { field, value, provenance } },
    };
  },
});

type ExtractArgs = Parameters<typeof extract.handle>[0];

interface ReadTarget {
  elements: Array<{ locator: Locator; label: string; ref?: string }>;
  label: string;
  /** How the provenance names where the value was read. */
  locator: string;
  /** One locator for every element read, recorded for recipes; none when the model named the elements one by one. */
  element?: SemanticLocator;
  /** A CSS selector list's alternatives: the record names the one each element matched. */
  alternatives?: string[];
}

interface PartRead {
  value: unknown;
  element: ElementRead;
  locator: Locator;
  label: string;
  ref?: string;
  /** The words the value came from, when not the whole text. */
  from?: string;
  reading?: string;
  /** Why the value is null: nothing there, a pattern that did not match, or text that is not of the type. */
  why?: 'empty' | 'no match' | 'not a type';
  message?: string;
}

/**
 * The element(s) to read: one target (every match of it with `all`), or several refs the model listed; those are
 * read in the order given and leave no locator to record (a recipe finds them by the values they showed).
 */
async function resolveRead(target: TargetArg, all: boolean, env: ActionEnv): Promise<ReadTarget> {
  const refs = all ? refList(target) : undefined;
  if (refs) {
    const each: ResolvedTarget[] = [];
    for (const ref of refs) each.push(await resolveTarget(ref, env));
    return {
      elements: each.map(r => ({ locator: r.locator, label: r.label, ref: r.ref })),
      label: each.map(r => r.label).join(', '),
      locator: each.map(r => describeLocator(r.element)).join(' + '),
    };
  }
  const resolved = await resolveTarget(target, env, { allowMany: all });
  const locators = all ? await resolved.locator.all() : [resolved.locator.first()];
  const css = 'css' in resolved.element ? selectorAlternatives(resolved.element.css) : [];
  return {
    elements: locators.map(locator => ({ locator, label: resolved.label, ref: resolved.ref })),
    label: resolved.label,
    locator: describeLocator(resolved.element),
    element: resolved.element,
    ...(css.length > 1 ? { alternatives: css } : {}),
  };
}

async function readPart(element: ReadTarget['elements'][number], args: ExtractArgs, alternatives: string[] | undefined): Promise<PartRead> {
  const read = await readElement(element.locator, { attribute: args.attribute, exact: Boolean(args.exact), alternatives });
  const part = { element: read, locator: element.locator, label: element.label, ref: element.ref };
  if (read.raw === null) return { ...part, value: null, why: 'empty' };
  return { ...part, ...readValue(args, read) };
}

/** The value read, or null when there is nothing (an empty text or attribute is not a value) and why. */
function readValue(args: ExtractArgs, read: ElementRead): Omit<PartRead, 'element' | 'locator' | 'label' | 'ref'> {
  const raw = read.raw ?? '';
  const { field, pattern, exact } = args;
  const type: ValueType = args.type ?? 'string';
  const matched = pattern ? applyPattern(raw, pattern) : raw;
  if (matched === null)
    return { value: null, why: 'no match', message: `"${field}": the element text ${JSON.stringify(raw.slice(0, 120))} does not match /${pattern}/` };
  const named = read.named ? `no text of its own: its accessible name (${read.named})` : undefined;
  if (type === 'string') {
    const text = exact ? matched : matched.replace(/\s+/g, ' ').trim();
    return text === '' ? { value: null, why: 'empty' } : { value: text, ...(named ? { reading: named } : {}) };
  }
  if (matched.trim() === '') return { value: null, why: 'empty' };
  const conventions = conventionsOf(read);
  const typed = readTyped(matched, type, conventions);
  if (!typed)
    return {
      value: null,
      why: 'not a type',
      message: `"${field}": ${JSON.stringify(matched.slice(0, 80))} is not a ${type}${languageNote(conventions)}`,
    };
  const stamped =
    type === 'date' && typed.reading?.startsWith('relative') && read.timestamp ? readTyped(read.timestamp, 'date', conventions) : undefined;
  if (stamped)
    return {
      value: stamped.value,
      from: typed.from,
      reading: `${JSON.stringify(typed.from)} is relative: the element's own timestamp ${read.timestamp}`,
    };
  return {
    value: typed.value,
    ...(typed.from && typed.from !== matched.trim() ? { from: typed.from } : {}),
    ...(typed.reading ? { reading: typed.reading } : {}),
  };
}

/** How the page writes dates and numbers: its language (nearest lang, then the browser's); relative dates count from the element's timestamp or now. */
function conventionsOf(read: ElementRead): ReadConventions {
  const lang = read.languages[0];
  const stamp = read.timestamp ? new Date(read.timestamp) : undefined;
  const now = new Date();
  const reference =
    stamp && !Number.isNaN(stamp.getTime())
      ? { instant: stamp, said: `the element's own timestamp ${read.timestamp}` }
      : { instant: now, said: `the time of reading (${now.toISOString().slice(0, 16)}Z)` };
  return {
    languages: read.languages,
    dayFirst: languageDayFirst(lang),
    decimalComma: decimalCommaOf(lang) ?? false,
    source: lang ? `the page language ${JSON.stringify(lang)}` : undefined,
    reference,
  };
}

function languageNote(conventions: ReadConventions): string {
  return conventions.languages?.length ? ` (read in ${conventions.languages.map(lang => JSON.stringify(lang)).join(', then ')})` : '';
}

function domProvenance(env: ActionEnv, locator: string, ref?: string): Provenance {
  return { source: 'dom', url: env.page.url(), locator, ref, step: env.step, at: new Date().toISOString() };
}

/** Where each part came from: the element a selector list matched, each ref of a list, and the text each showed. */
function partsProvenance(env: ActionEnv, read: ReadTarget, reads: readonly PartRead[], ref: string | undefined): Provenance {
  const locatorOf = (part: PartRead) => (part.element.matched ? `css=${part.element.matched}` : undefined);
  const first = reads[0];
  const provenance: Provenance = {
    ...domProvenance(env, (first && reads.length === 1 && locatorOf(first)) || read.locator, ref),
    preview: first?.element.preview ?? '',
  };
  if (first && reads.length === 1) {
    if (first.from) provenance.text = first.from;
    if (first.reading) provenance.reading = first.reading;
  }
  if (reads.length > 1 || read.alternatives)
    provenance.parts = reads.map(part => ({
      ...(part.ref ? { ref: part.ref } : {}),
      locator: locatorOf(part) ?? part.label,
      preview: part.element.preview,
      ...(part.from ? { text: part.from } : {}),
      ...(part.reading ? { reading: part.reading } : {}),
    }));
  return provenance;
}

function nullNote(reads: readonly PartRead[], all: boolean): string {
  const nulls = reads.filter(part => part.value === null);
  if (!nulls.length) return '';
  const why = [...new Set(nulls.map(part => (part.why === 'no match' ? 'no match' : part.why === 'not a type' ? 'not readable' : 'empty')))].join(
    ', ',
  );
  return all && nulls.length < reads.length ? ` (${nulls.length} of ${reads.length} ${why} → null)` : ` (${why} → null)`;
}

function readingNote(reads: readonly PartRead[]): string {
  const first = reads[0];
  if (reads.length !== 1 || !first || (!first.from && !first.reading)) return '';
  return ` [${[first.from ? `read from ${JSON.stringify(first.from)}` : '', first.reading ?? ''].filter(Boolean).join('; ')}]`;
}
