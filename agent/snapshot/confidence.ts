import type { PageMetrics } from './page-metrics';
import type { FlatNode } from './raw';
import { CONTENT_ROLES, INTERACTIVE_ROLES } from './roles';
import type { Box, DomConfidence } from './types';

/**
 * DOM confidence, a penalty score clamped to [0, 1] — a summary of how much of the page only pixels show, reported
 * with every observation (bench/perception prints it). Whether a decision carries a screenshot is not decided by
 * this score but by the measures beside it, each on its own (loop/vision-gate.ts): one rule for every page, which a
 * page-wide score mixing unrelated terms could not give.
 *
 *   1 − min(0.6, 1.5·canvasShare) − min(0.6, unnamedImageShare) − 0.4·unlabeled/interactive
 *     − 0.8·min(1, svgIcons/interactive) − (semantic < 10 ? 0.3 : 0)
 *
 * Why these terms:
 * - Weights. With weights of 0.3/0.2/0.1 a CI page whose 7 pass/fail marks are unlabeled SVGs next to
 *   10 links scores 0.93, so vision never fires. The weights above were
 *   calibrated on the fixture pages: normal pages stay ≥ 0.85, the svg-status and canvas-chart pages
 *   fall below 0.6.
 * - canvasShare is the share of the *viewport area* covered by canvas, not canvas count / node count:
 *   one chart among 300 nodes would otherwise cost 0.001, and the screenshot vision reads is the viewport.
 *   Pictures without a text alternative count the same way at weight 1: one alone must cover more than 40% of
 *   the viewport to bring a page under 0.6 (a thumbnail or a logo beside text never does).
 * - interactive, unlabeled and semantic counts come from the AI snapshot, not a DOM query: "unlabeled"
 *   then means exactly "the agent sees a control it cannot name", with the browser's own accessible-name
 *   computation, shadow DOM and iframes included.
 */

export const CONFIDENCE_WEIGHTS = { canvas: 1.5, canvasCap: 0.6, image: 1, imageCap: 0.6, unlabeled: 0.4, svg: 0.8, fewSemantic: 0.3 } as const;
export const MIN_SEMANTIC_NODES = 10;

export interface SnapshotCounts {
  interactive: number;
  unlabeledInteractive: number;
  semanticNodes: number;
  /** Characters of running text and headings inside the viewport: what a screenshot of it could only repeat. */
  viewportTextChars: number;
  /** Controls in the viewport the page state describes alike (see lookAlikeControls), where they are, and all controls in view. */
  lookAlike: { count: number; inView: number; region?: Box };
}

/** From this many controls that read the same, the page state cannot say which one is which. */
export const LOOK_ALIKE_GROUP = 3;

/**
 * Controls in the viewport without a name that the page state prints alike — same role, same hints, same address
 * (six `clickable icon="tile"`, a ring of bare `button`s): only how they look tells them apart. Groups of at least
 * LOOK_ALIKE_GROUP count, and the box around them all is where a screenshot must look; `inView` counts every control
 * in the viewport, so a share can be told (three bare share icons among sixty links are no such page).
 */
export function lookAlikeControls(flat: readonly FlatNode[]): SnapshotCounts['lookAlike'] {
  const groups = new Map<string, FlatNode[]>();
  let inView = 0;
  for (const item of flat) {
    const node = item.node;
    if (!isInteractiveNode(item) || !node.inViewport) continue;
    inView++;
    if (node.name?.trim() || node.text?.trim() || !node.box) continue;
    const hint = node.hint;
    const key = [node.role, hint?.label, hint?.icon, hint?.state, hint?.near, node.url, node.placeholder, node.value].join('\u0001');
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  const alike = [...groups.values()].filter(group => group.length >= LOOK_ALIKE_GROUP).flat();
  if (alike.length === 0) return { count: 0, inView };
  const boxes = alike.map(item => item.node.box as Box);
  const left = Math.min(...boxes.map(box => box.x));
  const top = Math.min(...boxes.map(box => box.y));
  const right = Math.max(...boxes.map(box => box.x + box.width));
  const bottom = Math.max(...boxes.map(box => box.y + box.height));
  return {
    count: alike.length,
    inView,
    region: { x: Math.floor(left), y: Math.floor(top), width: Math.ceil(right - left), height: Math.ceil(bottom - top) },
  };
}

export function isInteractiveNode(item: FlatNode): boolean {
  return INTERACTIVE_ROLES.has(item.node.role) || (item.node.clickable === true && !!item.node.ref);
}

export function countSnapshot(flat: readonly FlatNode[]): SnapshotCounts {
  let interactive = 0;
  let unlabeledInteractive = 0;
  let semanticNodes = 0;
  let viewportTextChars = 0;
  for (const item of flat) {
    const node = item.node;
    if (node.inViewport) viewportTextChars += item.fragment ? (node.text?.length ?? 0) : node.role === 'heading' ? (node.name?.length ?? 0) : 0;
    if (isInteractiveNode(item)) {
      interactive++;
      semanticNodes++;
      const label = node.name ?? (node.role === 'generic' ? node.text : undefined);
      if (!label?.trim()) unlabeledInteractive++;
    } else if (CONTENT_ROLES.has(node.role) && node.role !== 'text' && (node.name || node.text)) {
      semanticNodes++;
    }
  }
  return { interactive, unlabeledInteractive, semanticNodes, viewportTextChars, lookAlike: lookAlikeControls(flat) };
}

export function computeConfidence(
  metrics: Pick<PageMetrics, 'canvasShare' | 'unnamedImageShare' | 'svgOnlyIcons' | 'totalElements' | 'pixelOnlyRegion'>,
  counts: SnapshotCounts,
): DomConfidence {
  const perInteractive = Math.max(counts.interactive, 1);
  let score = 1;
  score -= Math.min(CONFIDENCE_WEIGHTS.canvasCap, CONFIDENCE_WEIGHTS.canvas * metrics.canvasShare);
  score -= Math.min(CONFIDENCE_WEIGHTS.imageCap, CONFIDENCE_WEIGHTS.image * metrics.unnamedImageShare);
  score -= CONFIDENCE_WEIGHTS.unlabeled * (counts.unlabeledInteractive / perInteractive);
  score -= CONFIDENCE_WEIGHTS.svg * Math.min(1, metrics.svgOnlyIcons / perInteractive);
  if (counts.semanticNodes < MIN_SEMANTIC_NODES) score -= CONFIDENCE_WEIGHTS.fewSemantic;
  return {
    score: Math.round(Math.min(1, Math.max(0, score)) * 1000) / 1000,
    canvasShare: Math.round(metrics.canvasShare * 1000) / 1000,
    unnamedImageShare: Math.round(metrics.unnamedImageShare * 1000) / 1000,
    unlabeledInteractive: counts.unlabeledInteractive,
    svgOnlyIcons: metrics.svgOnlyIcons,
    semanticNodes: counts.semanticNodes,
    interactive: counts.interactive,
    viewportTextChars: counts.viewportTextChars,
    totalNodes: metrics.totalElements,
    lookAlikeControls: counts.lookAlike.count,
    controlsInView: counts.lookAlike.inView,
    ...(metrics.pixelOnlyRegion ? { pixelOnlyRegion: metrics.pixelOnlyRegion } : {}),
    ...(counts.lookAlike.region ? { lookAlikeRegion: counts.lookAlike.region } : {}),
  };
}
