import { abortable } from './abort';
import { fitToBudget } from './budget';
import { computeConfidence, countSnapshot } from './confidence';
import { enrichFormControls } from './enrich';
import { normalizeKeywords } from './keywords';
import { collectPageMetrics, pageMetricsSchema, type PageMetrics } from './page-metrics';
import { selectCandidates } from './prune';
import { flattenSnapshot, type FlatNode } from './raw';
import { formatHeader, type HeaderFacts } from './serialize';
import { defaultTokenBudget, estimateTokens } from './tokens';
import type { Observation, ObserveOptions, ObservePage, ScrollState } from './types';
import { askVision, DEFAULT_VISION_THRESHOLD } from './vision';

/**
 * The agent's view of the page: exactly one AI snapshot plus one evaluate, pruned to the token budget.
 * Refs in the result are valid until the next AI snapshot of the same frame, so nothing else may take
 * one between observe() and the action that uses them.
 */
export async function observe(page: ObservePage, options: ObserveOptions = {}): Promise<Observation> {
  const started = performance.now();
  const { signal } = options;
  const { json, metrics } = await captureWithRetry(page, signal);
  const { flat, refs, rawChars } = flattenSnapshot(json, { width: metrics.viewportWidth, height: metrics.viewportHeight });
  enrichFormControls(flat, metrics);

  const keywords = normalizeKeywords(options.keywords);
  const pruned = selectCandidates(flat, { keywords, mustKeep: options.mustKeep });
  const scroll = toScrollState(metrics);
  const headerFacts: HeaderFacts = {
    url: page.url(),
    title: metrics.title,
    scroll,
    rawNodes: flat.length,
    prunedNodes: flat.length,
    chromeRegions: pruned.chromeRegions,
    overBudget: flat.length,
    belowFold: flat.length,
  };
  const headerReserve = estimateTokens(formatHeader(headerFacts)) + 2;
  const tokenBudget = Math.max(0, (options.tokenBudget ?? defaultTokenBudget()) - headerReserve);
  const fitted = fitToBudget(flat, pruned.candidates, { tokenBudget, keywords });
  const nodes = fitted.kept.map((candidate) => candidate.flat.node);
  const belowFold = fitted.kept.filter((candidate) => isBelowFold(flat, candidate.flat, metrics.viewportHeight)).length;
  const header = formatHeader({ ...headerFacts, prunedNodes: flat.length - nodes.length, overBudget: fitted.overBudget, belowFold });
  let text = [header, ...fitted.lines].join('\n');

  const counts = countSnapshot(flat);
  const confidence = computeConfidence(metrics, counts);
  let vision: Observation['vision'];
  const threshold = options.visionThreshold ?? DEFAULT_VISION_THRESHOLD;
  if (options.vision && confidence.score < threshold) {
    const outcome = await askVision(page, options.vision, options.goal ?? '(no goal given)', text, signal);
    if (outcome.ok) vision = { question: outcome.question, answer: outcome.answer };
    text = `${text}\n\n${outcome.section}`;
  }

  return {
    url: headerFacts.url,
    title: metrics.title,
    text,
    nodes,
    refs,
    interactiveCount: counts.interactive,
    scroll,
    confidence,
    vision,
    stats: {
      rawNodes: flat.length,
      keptNodes: nodes.length,
      prunedNodes: flat.length - nodes.length,
      belowFold,
      rawChars,
      textChars: text.length,
      estimatedTokens: estimateTokens(text),
      tookMs: Math.round(performance.now() - started),
    },
  };
}

interface Capture {
  json: unknown;
  metrics: PageMetrics;
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
  const [json, metrics] = await Promise.all([
    page.ariaSnapshotJSON({ mode: 'ai', boxes: true, signal }),
    abortable(page.evaluate(collectPageMetrics), signal),
  ]);
  return { json, metrics: pageMetricsSchema.parse(metrics) };
}

function isNavigationRace(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Execution context was destroyed|Cannot find context|frame was detached|navigat/i.test(message);
}

function toScrollState(metrics: PageMetrics): ScrollState {
  const maxY = Math.max(0, metrics.scrollHeight - metrics.viewportHeight);
  return {
    x: metrics.scrollX,
    y: metrics.scrollY,
    maxY,
    viewportHeight: metrics.viewportHeight,
    atEnd: metrics.scrollY >= maxY - 2,
  };
}

/** Fragments carry no box: the nearest boxed ancestor decides. */
function isBelowFold(flat: readonly FlatNode[], item: FlatNode, viewportHeight: number): boolean {
  if (item.node.inViewport) return false;
  for (let current: FlatNode | undefined = item; current; current = flat[current.parent]) {
    const box = current.node.box;
    if (box && box.width > 0 && box.height > 0) return box.y >= viewportHeight;
  }
  return false;
}
