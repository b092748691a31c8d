import { collectDocumentFacts, documentFactsSchema, type DocumentFact } from '../../snapshot/document-facts';
import type { Provenance } from '../../evidence/result-schema';
import { ActionError, type ActionEnv, type HandlerOutput } from '../core/types';
import { applyPattern, readTyped, type ValueType } from './coerce';
import { conventionsOf } from './read-value';

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
    source: known.source === 'dom' ? 'dom' : known.source,
    url: env.page.url(),
    locator: place,
    ref,
    key: known.key,
    step: env.step,
    at: new Date().toISOString(),
  };
  if (!fact) {
    if (args.missing === 'null')
      return { description: `${field} = null (the page no longer says it at ${place})`, effects: { extracted: { field, value: null, provenance } } };
    throw new ActionError(`${ref}: the page no longer says ${known.field} at ${place} — take a fresh look at the page state`);
  }
  provenance.preview = fact.shown ?? fact.value.slice(0, 120);
  const matched = args.pattern ? applyPattern(fact.value, args.pattern) : fact.value;
  if (matched === null) {
    if (args.missing === 'null') return { description: `${field} = null (no match)`, effects: { extracted: { field, value: null, provenance } } };
    throw new ActionError(`"${field}": ${JSON.stringify(fact.value.slice(0, 120))} (${place}) does not match /${args.pattern}/`);
  }
  const type = args.type ?? 'string';
  const lang = live.facts.find(candidate => candidate.field === 'language')?.value;
  const typed = readTyped(matched, type, conventionsOf(lang ? [lang] : []));
  if (!typed) throw new ActionError(`"${field}": ${JSON.stringify(matched.slice(0, 80))} (${place}) is not a ${type}`);
  if (typed.from && typed.from !== matched.trim()) provenance.text = typed.from;
  const reading = [typed.reading, shownNote(fact)].filter(Boolean).join('; ');
  if (reading) provenance.reading = reading;
  const shown = typeof typed.value === 'string' ? JSON.stringify(typed.value.slice(0, 200)) : JSON.stringify(typed.value);
  return {
    description: `${field} = ${shown} (from [${ref}] ${known.field}, ${place}${reading ? `; ${reading}` : ''})`,
    effects: { extracted: { field, value: typed.value, provenance } },
  };
}

/** A <time> that shows other words than its datetime: both belong in the record. */
function shownNote(fact: DocumentFact): string | undefined {
  return fact.shown && fact.shown !== fact.value ? `the element shows ${JSON.stringify(fact.shown)}` : undefined;
}
