import type { Locator } from '@playwright/test';
import { z } from 'zod';
import type { Provenance } from '../evidence/result-schema';
import { describeLocator, DocumentFactTarget, type SemanticLocator } from '../task/locator-schema';
import { VALUE_TYPES } from './values/coerce';
import { emptyReadMessage, readElement, selectorAlternatives, type ElementRead } from './values/read-element';
import { countTarget } from './values/count';
import { readDocumentFacts } from './values/document-read';
import { readValue, settleReads, type ValueRead } from './values/read-value';
import { isDocumentRef, REF_PATTERN, refList, resolveTarget, TargetArg, type ResolvedTarget } from './targets/target';
import { ActionError, defineAction, NotFoundError, type ActionEnv } from './core/types';

export const extract = defineAction({
  name: 'extract',
  readsOnly: true,
  independent: true,
  historyWeight: 2,
  collects: true,
  productive: true,
  description: 'Read a field from an element, recorded with its source.',
  verifies:
    "The element exists (with missing \"null\", absence is null); the text matches the pattern and the type; an empty text or attribute is a failure naming what else the element has (its text, other attributes). With missing \"null\", an absent element, an empty text, a pattern that does not match and a text not of the type are null, said so; several matches or a locator the page cannot parse stay failures. Dates and numbers are read in the page's language; the record keeps the words read, the element's text and which element of a selector list or ref list each part came from. A link or button at the start or end of the text that repeats words the element already says (a tag beside a subject) is left out, and said; a field's type and value are what the browser holds, with the attribute as written when it differs. With count, the value is the number of elements (a list's items, a table's data rows), and the record lists each one counted, by CSS path or ref, with its text.",
  schema: z.object({
    field: z.string().min(1).describe('Output field name'),
    // A model names a document line by its ref ("d3"); a recipe by where the page says it. The model sees a string either way.
    // Flat, so the registry still knows it for an element argument (elementArguments).
    target: z.union([...TargetArg.options, DocumentFactTarget]).describe(TargetArg.description ?? ''),
    pattern: z.string().optional().describe('Regex; group 1 (or the match) is the value'),
    type: z.enum(VALUE_TYPES).optional().describe('Default string; date = YYYY-MM-DD (--MM-DD when the page shows no year)'),
    attribute: z.string().optional().describe('Instead of the text, e.g. "href"'),
    exact: z.boolean().optional().describe('Keep whitespace as is'),
    missing: z
      .enum(['error', 'null'])
      .optional()
      .describe('"null": an absent element, an empty text, no pattern match or a text not of the type gives null'),
    all: z
      .boolean()
      .optional()
      .describe('Every match, as a list (several elements or document lines: their refs as target, "e12 e15" or "d2 d3", not both kinds)'),
    count: z
      .boolean()
      .optional()
      .describe("How many elements the target names (its matches, the refs listed, or one list's items or table's rows), each recorded"),
  }),
  async handle(args, env) {
    const { field, target, missing } = args;
    if (args.count) {
      if (typeof target === 'object' && 'document' in target) throw new ActionError('count counts elements: a document line is one fact');
      return countTarget(field, target, env);
    }
    // A recipe's read of a document line: the fact by where the page says it.
    if (typeof target === 'object' && 'document' in target)
      return readDocumentFacts({ ...args, at: { source: target.document, key: target.key } }, [], env);
    const documentRefs = documentLines(target, Boolean(args.all));
    if (documentRefs) return readDocumentFacts(args, documentRefs, env);
    let read: ReadTarget;
    try {
      read = await resolveRead(target, Boolean(args.all), env);
    } catch (error) {
      // Only an element that is not there is a null field: several matches, a tab that is gone are failures.
      if (missing !== 'null' || !(error instanceof NotFoundError)) throw error;
      const provenance = domProvenance(env, typeof target === 'string' ? target : describeLocator(target));
      return { description: `${field} = null (element not on the page)`, effects: { extracted: { field, value: null, provenance } } };
    }
    const reads: PartRead[] = [];
    for (const element of read.elements) reads.push(await readPart(element, args, read.alternatives));
    const settled = settleReads(reads, args);
    if ('failed' in settled) {
      const { failed } = settled;
      if (failed.why !== 'empty') throw new ActionError(failed.message ?? '');
      throw new ActionError(await emptyReadMessage(failed.locator, field, failed.label, args.attribute, failed.element.raw === null));
    }
    const { value } = settled;
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

/**
 * The lines of the document section the target names (`d4`, or `d2 d3` with `all`), read by their source and key;
 * undefined when it names elements. A list that mixes both is refused: the two are read and recorded differently.
 */
function documentLines(target: TargetArg, all: boolean): string[] | undefined {
  if (typeof target !== 'string') return undefined;
  const refs = (all ? refList(target) : undefined) ?? [target.trim()];
  const lines = refs.filter(isDocumentRef);
  if (lines.length === 0) return undefined;
  if (lines.length < refs.length)
    throw new ActionError(
      `${target.trim()} mixes lines of the document section (${lines.join(' ')}) with elements: read each kind in an extract of its own`,
    );
  return lines;
}

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

interface PartRead extends ValueRead {
  element: ElementRead;
  locator: Locator;
  label: string;
  ref?: string;
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
  if (reads.length !== 1 || !first) return '';
  const { leftOut, written } = first.element;
  const notes = [
    first.from ? `read from ${JSON.stringify(first.from)}` : '',
    first.reading ?? '',
    leftOut?.length
      ? `the control${leftOut.length > 1 ? 's' : ''} ${leftOut.map(text => JSON.stringify(text)).join(', ')} beside it repeat${leftOut.length > 1 ? '' : 's'} its words: left out as ${leftOut.length > 1 ? 'elements' : 'an element'} of ${leftOut.length > 1 ? 'their' : 'its'} own`
      : '',
    written !== undefined ? `what the field holds; its attribute as written says ${JSON.stringify(written)}` : '',
  ].filter(Boolean);
  return notes.length ? ` [${notes.join('; ')}]` : '';
}
