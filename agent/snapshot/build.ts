import { fitToBudget } from './budget';
import { computeConfidence, countSnapshot } from './confidence';
import { enrichFormControls } from './enrich';
import { normalizeKeywords } from './keywords';
import type { PageMetrics } from './page-metrics';
import { selectCandidates } from './prune';
import { flattenSnapshot, type FlatNode } from './raw';
import { formatHeader, type HeaderFacts } from './serialize';
import { defaultTokenBudget, estimateTokens } from './tokens';
import type { Observation, ObserveOptions, ScrollState } from './types';

export type BuildOptions = Pick<ObserveOptions, 'keywords' | 'tokenBudget' | 'mustKeep'>;

/**
 * Everything observe() does after the two page calls, as a pure function of the AI snapshot JSON and
 * the page metrics — so pruning and serialisation are testable without a browser.
 */
export function buildObservation(json: unknown, metrics: PageMetrics, url: string, options: BuildOptions = {}): Observation {
  const { flat, refs, rawChars } = flattenSnapshot(json, { width: metrics.viewportWidth, height: metrics.viewportHeight });
  enrichFormControls(flat, metrics);

  const keywords = normalizeKeywords(options.keywords);
  const pruned = selectCandidates(flat, { keywords, mustKeep: options.mustKeep });
  const scroll = toScrollState(metrics);
  const headerFacts: HeaderFacts = {
    url,
    title: metrics.title,
    scroll,
    rawNodes: flat.length,
    prunedNodes: flat.length,
    chromeRegions: pruned.chromeRegions,
    overBudget: flat.length,
    belowFold: flat.length,
  };
  // Worst-case counts, so the header never outgrows its reservation.
  const headerReserve = estimateTokens(formatHeader(headerFacts)) + 1;
  const tokenBudget = Math.max(0, (options.tokenBudget ?? defaultTokenBudget()) - headerReserve);
  const fitted = fitToBudget(flat, pruned.candidates, { tokenBudget, keywords });
  const nodes = fitted.kept.map((candidate) => candidate.flat.node);
  const belowFold = fitted.kept.filter((candidate) => isBelowFold(flat, candidate.flat, metrics.viewportHeight)).length;
  const header = formatHeader({ ...headerFacts, prunedNodes: flat.length - nodes.length, overBudget: fitted.overBudget, belowFold });
  const text = [header, ...fitted.lines].join('\n');
  const counts = countSnapshot(flat);

  return {
    url,
    title: metrics.title,
    text,
    nodes,
    refs,
    interactiveCount: counts.interactive,
    scroll,
    confidence: computeConfidence(metrics, counts),
    stats: {
      rawNodes: flat.length,
      keptNodes: nodes.length,
      prunedNodes: flat.length - nodes.length,
      belowFold,
      rawChars,
      textChars: text.length,
      estimatedTokens: estimateTokens(text),
      tookMs: 0,
    },
  };
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
