import { collectDocumentFacts, documentFactsSchema, type DocumentFact } from '../../snapshot/document-facts';
import type { Provenance } from '../../evidence/result-schema';
import { ActionError, type ActionEnv, type HandlerOutput } from '../core/types';
import type { ValueType } from './coerce';
import { readValue, settleReads } from './read-value';

/** A document fact read again in full (the page state shortens it). */
const FULL_FACT_CHARS = 4_000;

export interface DocumentReadArgs {
  field: string;
  ref: string;
  type?: ValueType;
  pattern?: string;
  missing?: 'error' | 'null';
}

/**
 * `extract` of a document-section line (`d4`): the page's metadata read again now, by the source and key the line
 * showed, and recorded as such (`source: "meta"`, `key: "article:published_time"`) — never as an element's text.
 */
export async function readDocumentFact(args: DocumentReadArgs, env: ActionEnv): Promise<HandlerOutput> {
  const { field, ref } = args;
  const known = env.elements.get(ref)?.fact;
  if (!known) throw new ActionError(`${ref} is not in the latest page state — take a fresh look at the page state and use a current ref`);
  const live = documentFactsSchema.parse(await env.page.evaluate(collectDocumentFacts, { maxChars: FULL_FACT_CHARS }));
  const fact = live.facts.find(candidate => candidate.source === known.source && candidate.key === known.key);
  const place = `${known.source} ${known.key}`;
  const provenance: Provenance = {
    source: known.source,
    url: env.page.url(),
    locator: place,
    ref,
    key: known.key,
    step: env.step,
    at: new Date().toISOString(),
  };
  const extracted = (value: unknown) => ({ extracted: { field, value, provenance } });
  if (!fact) {
    if (args.missing === 'null') return { description: `${field} = null (the page no longer says it at ${place})`, effects: extracted(null) };
    throw new ActionError(`${ref}: the page no longer says ${known.field} at ${place} — take a fresh look at the page state`);
  }
  provenance.preview = fact.shown ?? fact.value.slice(0, 120);
  const lang = live.facts.find(candidate => candidate.field === 'language')?.value;
  const read = readValue(args, { raw: fact.value, languages: lang ? [lang] : [] });
  const settled = settleReads([read], args);
  if ('failed' in settled) throw new ActionError(`${settled.failed.message ?? `"${field}": the page says nothing`} (${place})`);
  if (settled.value === null)
    return { description: `${field} = null (${read.why === 'not a type' ? 'not readable' : read.why} → null)`, effects: extracted(null) };
  if (read.from) provenance.text = read.from;
  const reading = [read.reading, shownNote(fact)].filter(Boolean).join('; ');
  if (reading) provenance.reading = reading;
  const shown = typeof settled.value === 'string' ? JSON.stringify(settled.value.slice(0, 200)) : JSON.stringify(settled.value);
  return {
    description: `${field} = ${shown} (from [${ref}] ${known.field}, ${place}${reading ? `; ${reading}` : ''})`,
    effects: extracted(settled.value),
  };
}

/** A <time> that shows other words than its datetime: both belong in the record. */
function shownNote(fact: DocumentFact): string | undefined {
  return fact.shown && fact.shown !== fact.value ? `the element shows ${JSON.stringify(fact.shown)}` : undefined;
}
