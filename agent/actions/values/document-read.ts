import { collectDocumentFacts, documentFactsSchema, type DocumentFact } from '../../snapshot/document-facts';
import type { Provenance } from '../../evidence/result-schema';
import { ActionError, type ActionEnv, type HandlerOutput, type KnownElement } from '../core/types';
import type { ValueType } from './coerce';
import { readValue, settleReads, type ValueRead } from './read-value';

/** A document fact read again in full (the page state shortens it). */
export const FULL_FACT_CHARS = 4_000;

export interface DocumentReadArgs {
  field: string;
  type?: ValueType;
  pattern?: string;
  missing?: 'error' | 'null';
  all?: boolean;
  /** In a recipe, the fact itself by where the page says it (the model names a line of the section by its ref instead). */
  at?: { source: 'meta' | 'json-ld' | 'dom'; key: string };
}

/** One line of the document section read again: where, what the page says there now, and the value read from it. */
interface DocumentPart extends ValueRead {
  ref?: string;
  known: NonNullable<KnownElement['fact']>;
  place: string;
  fact?: DocumentFact;
}

/**
 * `extract` of document-section lines (`d4`, or `d2 d3` with `all`): the page's metadata read again now, by the
 * source and key each line showed, and recorded as such (`source: "meta"`, `key: "article:published_time"`) —
 * never as an element's text. What the reads come to follows extract's rule (settleReads). A recipe names the fact by
 * its source and key (`args.at`) instead of a ref.
 */
export async function readDocumentFacts(args: DocumentReadArgs, refs: readonly string[], env: ActionEnv): Promise<HandlerOutput> {
  const { field } = args;
  const known: Array<{ ref?: string; fact: DocumentPart['known'] }> = args.at
    ? [{ fact: { field, ...args.at } }]
    : refs.map(ref => {
        const fact = env.elements.get(ref)?.fact;
        if (!fact) throw new ActionError(`${ref} is not in the latest page state — take a fresh look at the page state and use a current ref`);
        return { ref, fact };
      });
  const live = documentFactsSchema.parse(await env.page.evaluate(collectDocumentFacts, { maxChars: FULL_FACT_CHARS }));
  const lang = live.facts.find(candidate => candidate.field === 'language')?.value;
  const parts = known.map(({ ref, fact }) => readPart(args, ref, fact, live.facts, lang));
  const settled = settleReads(parts, args);
  if ('failed' in settled) throw new ActionError(settled.failed.message ?? '');
  const [first] = parts;
  const provenance: Provenance = {
    source: first!.known.source,
    url: env.page.url(),
    locator: parts.map(part => part.place).join(' + '),
    ...(parts.length === 1 && first!.ref ? { ref: first!.ref } : {}),
    key: first!.known.key,
    step: env.step,
    at: new Date().toISOString(),
  };
  if (parts.length === 1) {
    provenance.preview = previewOf(first!);
    if (first!.from) provenance.text = first!.from;
    const reading = readingOf(first!);
    if (reading) provenance.reading = reading;
  } else
    provenance.parts = parts.map(part => ({
      ...(part.ref ? { ref: part.ref } : {}),
      locator: part.place,
      preview: previewOf(part),
      ...(part.from ? { text: part.from } : {}),
      ...(readingOf(part) ? { reading: readingOf(part) } : {}),
    }));
  return {
    description: `${field} = ${shown(settled.value)} (${parts.map(said).join('; ')})`,
    effects: { extracted: { field, value: settled.value, provenance } },
  };
}

function readPart(
  args: DocumentReadArgs,
  ref: string | undefined,
  known: DocumentPart['known'],
  facts: readonly DocumentFact[],
  lang: string | undefined,
): DocumentPart {
  const place = `${known.source} ${known.key}`;
  const fact = facts.find(candidate => candidate.source === known.source && candidate.key === known.key);
  if (!fact)
    return {
      ref,
      known,
      place,
      value: null,
      why: 'empty',
      // Only the model has a page state to look at again; a recipe's author gets the place and where the page does say things.
      message: ref
        ? `${ref}: the page no longer says ${known.field} at ${place} — take a fresh look at the page state`
        : `the page says no ${known.field} at ${place} (${saidInstead(known.source, facts)})`,
    };
  const read = readValue(args, { raw: fact.value, languages: lang ? [lang] : [] });
  const message = read.message ?? (read.why === 'empty' ? `"${args.field}": the page says nothing` : undefined);
  return { ...read, ref, known, place, fact, ...(message ? { message: `${message} (${place})` } : {}) };
}

/** Where the page does say something from the same source, so a recipe's author can tell a moved key from a missing fact. */
function saidInstead(source: DocumentFact['source'], facts: readonly DocumentFact[]): string {
  const keys = facts.filter(fact => fact.source === source).map(fact => `${fact.field} at ${fact.key}`);
  if (!keys.length) return `it says nothing in ${source}`;
  return `its ${source} says ${keys.slice(0, 6).join(', ')}${keys.length > 6 ? `, and ${keys.length - 6} more` : ''}`;
}

function said(part: DocumentPart): string {
  const line = part.ref ? `[${part.ref}] ${part.known.field}` : part.known.field;
  if (!part.fact) return `${line}: the page no longer says it at ${part.place}`;
  if (part.value === null) return `${line}, ${part.place}: ${part.why === 'not a type' ? 'not readable' : part.why} → null`;
  const reading = readingOf(part);
  return `from ${line}, ${part.place}${reading ? `; ${reading}` : ''}`;
}

const previewOf = (part: DocumentPart) => part.fact?.shown ?? part.fact?.value.slice(0, 120) ?? '';

/** How the text was read, and a <time> that shows other words than its datetime: both belong in the record. */
function readingOf(part: DocumentPart): string | undefined {
  const shownNote = part.fact?.shown && part.fact.shown !== part.fact.value ? `the element shows ${JSON.stringify(part.fact.shown)}` : undefined;
  return [part.reading, shownNote].filter(Boolean).join('; ') || undefined;
}

const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value.slice(0, 200)) : JSON.stringify(value));
