import type { ActionLogEntry } from '../../evidence/result-schema';
import { isDocumentFactTarget } from '../../task/locator-schema';
import type { ActionCall } from '../core/dispatch';
import type { ActionEnv } from '../core/types';
import { isDocumentRef } from './target';

/**
 * The fact a document-section line (`d3`) named, by where the page says it (`meta article:published_time`). A ref
 * dies with its snapshot and a meta tag has no element a recipe could find again: it reads the fact at this place.
 * A recipe's own read of such a fact records its place too, so a sample the model finished after a replay compiles again.
 */
export function documentPlaceOf(call: ActionCall, env: Pick<ActionEnv, 'elements'>): ActionLogEntry['document'] {
  const target = call.args.target;
  if (isDocumentFactTarget(target)) return { source: target.document, key: target.key };
  if (typeof target !== 'string' || !isDocumentRef(target.trim())) return undefined;
  const fact = env.elements.get(target.trim())?.fact;
  return fact ? { source: fact.source, key: fact.key } : undefined;
}
