import { CLICK_LISTENERS_KEY } from './click-listeners';
import { CLOSED_SHADOW_ROOTS_KEY } from './closed-shadow-roots';
import { ELEMENT_IDS_KEY } from './element-ids';
import { untraced } from './untraced';
import { abortable } from './abort';
import { buildObservation } from './build';
import { collectDocumentFacts, documentFactsSchema, MAX_FACT_CHARS, type DocumentFacts } from './document-facts';
import { collectHiddenText, looksEmpty, HIDDEN_BLOCK_CHARS, MAX_HIDDEN_BLOCKS, parseHiddenText } from './hidden-text';
import { evaluateInPage, evaluateTwoInPage } from './in-page';
import { collectPageMetrics } from './page-metrics-in-page';
import {
  ICON_NOISE_WORDS,
  ICON_STATE_WORDS,
  MAX_CLICKABLE_FACTS,
  MAX_SCROLLER_FACTS,
  ONE_LINE_PX,
  pageMetricsSchema,
  type PageMetrics,
} from './page-metrics';
import { INTERACTIVE_ROLES } from './roles';
import { refMemoryOf, type RefMemory } from './stable-refs';
import type { Observation, ObserveOptions, ObservePage } from './types';

/**
 * The agent's view of the page: exactly one AI snapshot plus one evaluate, pruned to the token budget.
 * Refs in the result are valid until the next AI snapshot of the same frame, so nothing else may take
 * one between observe() and the action that uses them.
 */
/** `refMemory`: whose printed refs to keep (default: the page's own, stable-refs.ts). */
export async function observe(page: ObservePage, options: ObserveOptions & { refMemory?: RefMemory } = {}): Promise<Observation> {
  const started = performance.now();
  const { signal } = options;
  signal?.throwIfAborted();
  const { json, metrics, document } = await captureWithRetry(page, signal);
  const refMemory = options.refMemory ?? refMemoryOf(page);
  let observation = buildObservation(json, metrics, page.url(), { ...options, document, refMemory });
  if (looksEmpty(observation.stats.treeTextChars, document.bodyTextChars)) {
    // Rare, and only then worth a second read: why the tree is empty, and the text it leaves out.
    const hidden = await abortable(
      evaluateInPage(page, collectHiddenText, {
        maxBlocks: MAX_HIDDEN_BLOCKS,
        blockChars: HIDDEN_BLOCK_CHARS,
        closedRootsKey: CLOSED_SHADOW_ROOTS_KEY,
      }),
      signal,
    )
      .then(parseHiddenText)
      .catch(() => undefined);
    if (hidden && (hidden.why || hidden.blocks.length))
      observation = buildObservation(json, metrics, page.url(), { ...options, document, hidden, refMemory });
  }
  observation.stats.tookMs = Math.round(performance.now() - started);
  return observation;
}

interface Capture {
  json: unknown;
  metrics: PageMetrics;
  document: DocumentFacts;
}

/** A navigation landing between the two calls destroys the evaluate's context; one retry reads the new page. */
async function captureWithRetry(page: ObservePage, signal: AbortSignal | undefined): Promise<Capture> {
  try {
    return await capture(page, signal);
  } catch (error) {
    if (signal?.aborted || !isNavigationRace(error)) throw error;
    return capture(page, signal);
  }
}

async function capture(page: ObservePage, signal: AbortSignal | undefined): Promise<Capture> {
  // Untraced: the snapshot holds every field's value, typed secrets included (and it is every step's page state).
  const [json, facts] = await untraced(page, () =>
    Promise.all([
      page.ariaSnapshotJSON({ mode: 'ai', boxes: true, signal }),
      abortable(
        evaluateTwoInPage(
          page,
          [
            collectPageMetrics,
            {
              maxClickables: MAX_CLICKABLE_FACTS,
              noiseWords: ICON_NOISE_WORDS,
              interactiveRoles: [...INTERACTIVE_ROLES],
              stateWords: ICON_STATE_WORDS,
              listenersKey: CLICK_LISTENERS_KEY,
              elementIdsKey: ELEMENT_IDS_KEY,
              maxScrollers: MAX_SCROLLER_FACTS,
              oneLinePx: ONE_LINE_PX,
            },
          ],
          [collectDocumentFacts, { maxChars: MAX_FACT_CHARS }],
        ),
        signal,
      ),
    ]),
  );
  return { json, metrics: pageMetricsSchema.parse(facts.first), document: documentFactsSchema.parse(facts.second) };
}

function isNavigationRace(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Execution context was destroyed|Cannot find context|frame was detached|navigat/i.test(message);
}
