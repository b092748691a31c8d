import type { Page } from '@playwright/test';
import type { Screenshot } from '../decide/types';
import type { DomConfidence, Observation } from '../snapshot';

/** Below this DOM confidence a screenshot may hold what the tree lacks. */
export const VISION_THRESHOLD = 0.6;
const SCREENSHOT_TIMEOUT_MS = 10_000;
/** Below this much text in the viewport, a large picture may be what carries the page's words. */
const SPARSE_VIEWPORT_TEXT = 400;

/**
 * Why the tree is not enough, in terms a screenshot can resolve. A low score for any other reason (a sparse
 * page, a page still loading) is not one: its text is in the tree, and a screenshot would only repeat it.
 */
const SCREENSHOT_REASONS: ReadonlyArray<{
  applies: (c: DomConfidence) => boolean;
  reason: (c: DomConfidence) => string;
  /** What it is about lies in the confidence's pixelOnlyRegion (unnamed controls do not: they take the whole viewport). */
  inRegion: boolean;
}> = [
  {
    inRegion: true,
    applies: c => c.canvasShare >= 0.1,
    reason: c => `a canvas covers ${Math.round(c.canvasShare * 100)}% of the viewport (drawn content is not in the tree)`,
  },
  // A photo beside an article's text adds nothing the task needs; a picture that is most of what the viewport
  // shows (a scanned page, a notice set as an image) may hold the very words the task is after.
  {
    inRegion: true,
    applies: c => c.unnamedImageShare >= 0.25 && c.viewportTextChars < SPARSE_VIEWPORT_TEXT,
    reason: c =>
      `pictures without a text alternative cover ${Math.round(c.unnamedImageShare * 100)}% of the viewport (text or content set as an image is not in the tree)`,
  },
  {
    inRegion: true,
    applies: c => c.svgOnlyIcons > 0 && c.svgOnlyIcons >= 0.25 * Math.max(1, c.interactive),
    reason: c => `${c.svgOnlyIcons} icon(s) shown only as unlabeled SVG (status or meaning carried by shape or colour)`,
  },
  {
    inRegion: false,
    applies: c => c.unlabeledInteractive > 0 && c.unlabeledInteractive >= 0.2 * Math.max(1, c.interactive),
    reason: c => `${c.unlabeledInteractive} of ${c.interactive} controls have no name`,
  },
];

function firedReasons(confidence: DomConfidence, threshold: number) {
  return confidence.score >= threshold ? [] : SCREENSHOT_REASONS.filter(r => r.applies(confidence));
}

export function visionReasons(confidence: DomConfidence, threshold = VISION_THRESHOLD): string[] {
  return firedReasons(confidence, threshold).map(r => r.reason(confidence));
}

/** Room kept above and below the pixels-only elements: a label or a legend printed beside them. */
const BAND_MARGIN = 32;
/** A band this close to the whole viewport is sent as the whole viewport. */
const WHOLE_VIEWPORT_SHARE = 0.8;

/**
 * The full width of the viewport over the rows that hold the pixels-only elements (icons sit beside the names the
 * tree has; a chart beside its legend), or undefined for the whole viewport. An image costs tokens by its area:
 * a band of a third of the viewport costs a third.
 */
export function screenshotBand(
  region: DomConfidence['pixelOnlyRegion'],
  viewport: { width: number; height: number } | null,
): { x: number; y: number; width: number; height: number } | undefined {
  if (!region || !viewport) return undefined;
  const top = Math.max(0, region.y - BAND_MARGIN);
  const bottom = Math.min(viewport.height, region.y + region.height + BAND_MARGIN);
  if (bottom - top >= WHOLE_VIEWPORT_SHARE * viewport.height) return undefined;
  return { x: 0, y: top, width: viewport.width, height: bottom - top };
}

/**
 * Decides, per observation, whether the step's decision request carries a screenshot: only when the tree cannot
 * show what the page does, for a reason a screenshot resolves. There is no separate vision question: the model
 * looks at the pixels while it decides, in the one request of the step.
 */
export class VisionGate {
  constructor(private readonly threshold = VISION_THRESHOLD) {}

  async screenshotFor(
    page: Pick<Page, 'screenshot' | 'viewportSize'>,
    observation: Pick<Observation, 'confidence'>,
    signal: AbortSignal,
  ): Promise<Screenshot | undefined> {
    const fired = firedReasons(observation.confidence, this.threshold);
    if (fired.length === 0) return undefined;
    const clip = fired.every(r => r.inRegion) ? screenshotBand(observation.confidence.pixelOnlyRegion, page.viewportSize()) : undefined;
    // Animations stopped and the caret hidden: the pixels of the page as it stands, not of a frame in between.
    const png = await page
      .screenshot({ type: 'png', animations: 'disabled', caret: 'hide', timeout: SCREENSHOT_TIMEOUT_MS, ...(clip ? { clip } : {}) })
      .catch((error: unknown) => {
        if (signal.aborted) throw error;
        return undefined;
      });
    return png ? { png, reasons: fired.map(r => r.reason(observation.confidence)), band: clip !== undefined } : undefined;
  }
}
