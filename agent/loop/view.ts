import type { KnownElement } from '../actions/core/types';
import type { ContextTabs } from '../browser/context-tabs';
import { safeUrl } from '../browser/page-url';
import type { PageView } from '../decide/types';
import { PageStateFocus } from './page-state-focus';
import { observe, type Observation } from '../snapshot';
import type { TaskSpec } from '../task/schema';
import type { AskedLook, VisionGate } from './vision-gate';

export interface ViewOptions {
  /** The task's keywords lift the lines that name them (`bwa look` without a task has none). */
  task: Pick<TaskSpec, 'keywords'>;
  tokenBudget?: number;
  /** Takes a screenshot for the decision request when the tree cannot show what the page does (model deciders only). */
  vision?: VisionGate;
}

/** A hung renderer must not hang the sample: the agent gets a note and can refresh or go back. */
export const OBSERVE_TIMEOUT_MS = 20_000;

/** One observation per step: the AI snapshot pruned for the task; its refs are what actions resolve against. */
export function pageViewer(options: ViewOptions) {
  const focus = new PageStateFocus();
  return async (tabs: ContextTabs, _step: number, signal: AbortSignal, asked?: AskedLook): Promise<PageView> => {
    const page = tabs.active;
    try {
      const bounded = AbortSignal.any([signal, AbortSignal.timeout(OBSERVE_TIMEOUT_MS)]);
      const observation = await observe(page, {
        keywords: options.task.keywords,
        tokenBudget: options.tokenBudget,
        signal: bounded,
        ...focus.forNextLook(safeUrl(page, '(closed)')),
      });
      focus.remember(observation);
      // The model call has its own timeout; the observe deadline is for a hung renderer, not for a slow answer.
      const screenshot = await options.vision?.screenshotFor(page, observation, signal, asked);
      const elements = knownElements(observation);
      const tabList =
        tabs.pages.length > 1
          ? `\nTabs: ${tabs.pages.map((p, i) => `${i + 1}${p === page ? '*' : ''} ${JSON.stringify(safeUrl(p, '(closed)'))}`).join(' | ')}`
          : '';
      const unopened = focus.stillCollapsed();
      const text = `${observation.text}${unopened.length ? `\n${unopened.join('\n')}` : ''}${tabList}`;
      return {
        url: observation.url,
        title: observation.title,
        text,
        elements,
        nodes: observation.refs,
        interactiveCount: observation.interactiveCount,
        signature: observation.fingerprint,
        pagination: observation.pagination,
        pageState: focus,
        ...(screenshot ? { screenshot } : {}),
      };
    } catch (error) {
      focus.forget();
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      const url = safeUrl(page, '(closed)');
      return {
        url,
        title: '',
        text: `URL: ${JSON.stringify(url)}\n(the page could not be read: ${JSON.stringify(message)} — scroll, go back or refresh)`,
        elements: new Map(),
        interactiveCount: 0,
        signature: `unreadable\n${url}\n${message ?? ''}`,
        pageState: focus,
      };
    }
  };
}

/** Every ref of an observation as the action layer knows it: by role and label, and by CSS path for `c<N>` refs. */
export function knownElements(observation: Pick<Observation, 'refs'> & Partial<Pick<Observation, 'document'>>): Map<string, KnownElement> {
  const elements = new Map<string, KnownElement>();
  for (const [ref, node] of observation.refs)
    elements.set(ref, { ref, role: node.role, name: node.name, text: node.text, selector: node.selector, element: node.element });
  for (const fact of observation.document ?? [])
    elements.set(fact.ref, {
      ref: fact.ref,
      role: 'document',
      name: fact.field,
      text: fact.value,
      fact: { field: fact.field, source: fact.source, key: fact.key },
    });
  return elements;
}
