import * as fs from 'node:fs';
import type { Page } from '@playwright/test';
import type { Screenshot } from '../decide/types';
import type { DomConfidence, Observation } from '../snapshot';
import { LOOK_ALIKE_GROUP } from '../snapshot/confidence';

const SCREENSHOT_TIMEOUT_MS = 10_000;
/** Below this much text in the viewport, a large picture may be what carries the page's words. */
const SPARSE_VIEWPORT_TEXT = 400;

type Region = DomConfidence['pixelOnlyRegion'];

/**
 * What the viewport shows that the page state cannot say, in terms a screenshot resolves — one rule, the same on
 * every page: each reason is measured on the viewport alone, and any one of them sends the screenshot. A page whose
 * text is in the tree (a sparse page, a page still loading) has none: a screenshot would only repeat it.
 */
const SCREENSHOT_REASONS: ReadonlyArray<{
  applies: (c: DomConfidence) => boolean;
  reason: (c: DomConfidence) => string;
  /** Where in the viewport what it is about lies. */
  region: (c: DomConfidence) => Region;
}> = [
  {
    region: c => c.pixelOnlyRegion,
    applies: c => c.canvasShare >= 0.1,
    reason: c => `a canvas covers ${Math.round(c.canvasShare * 100)}% of the viewport (drawn content is not in the tree)`,
  },
  // A photo beside an article's text adds nothing the task needs; a picture that is most of what the viewport
  // shows (a scanned page, a notice set as an image) may hold the very words the task is after.
  {
    region: c => c.pixelOnlyRegion,
    applies: c => c.unnamedImageShare >= 0.25 && c.viewportTextChars < SPARSE_VIEWPORT_TEXT,
    reason: c =>
      `pictures without a text alternative cover ${Math.round(c.unnamedImageShare * 100)}% of the viewport (text or content set as an image is not in the tree)`,
  },
  {
    region: c => c.pixelOnlyRegion,
    applies: c => c.svgOnlyIcons > 0 && c.svgOnlyIcons >= 0.25 * Math.max(1, c.interactive),
    reason: c => `${c.svgOnlyIcons} icon(s) shown only as unlabeled SVG (status or meaning carried by shape or colour)`,
  },
  {
    region: c => c.lookAlikeRegion,
    applies: c => c.lookAlikeControls >= LOOK_ALIKE_GROUP && c.lookAlikeControls >= 0.25 * c.controlsInView,
    reason: c =>
      `${c.lookAlikeControls} of the ${c.controlsInView} controls in view have no name and read alike in the page state (only how they look tells them apart)`,
  },
];

function firedReasons(confidence: DomConfidence) {
  return SCREENSHOT_REASONS.filter(r => r.applies(confidence));
}

export function visionReasons(confidence: DomConfidence): string[] {
  return firedReasons(confidence).map(r => r.reason(confidence));
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
export function screenshotBand(region: Region, viewport: { width: number; height: number } | null): Region {
  if (!region || !viewport) return undefined;
  const top = Math.max(0, region.y - BAND_MARGIN);
  const bottom = Math.min(viewport.height, region.y + region.height + BAND_MARGIN);
  if (bottom - top >= WHOLE_VIEWPORT_SHARE * viewport.height) return undefined;
  return { x: 0, y: top, width: viewport.width, height: bottom - top };
}

/** The rows of every fired reason's region together; undefined (the whole viewport) when one has no region. */
function unionOf(regions: Region[]): Region {
  if (regions.length === 0 || regions.some(region => region === undefined)) return undefined;
  const boxes = regions as NonNullable<Region>[];
  const top = Math.min(...boxes.map(box => box.y));
  const bottom = Math.max(...boxes.map(box => box.y + box.height));
  const left = Math.min(...boxes.map(box => box.x));
  const right = Math.max(...boxes.map(box => box.x + box.width));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** A screenshot the model took in its last turn: it asked to see the page, so the next decision shows it. */
export interface AskedLook {
  label: string;
  filename: string;
  /** Where the saved image is. */
  path: string;
  step: number;
}

/**
 * Decides, per observation, whether the step's decision request carries a screenshot — the vision budget is one
 * image per decision, at most the viewport's size:
 * - the model took a screenshot in its last turn: that image, as saved, when it fits the viewport (a window or an
 *   element); a full page larger than that is sent as the viewport as it stands now;
 * - else when the viewport shows what the page state cannot say (SCREENSHOT_REASONS): the rows that hold it.
 * There is no separate vision question: the model looks at the pixels while it decides, in the one request of the step.
 */
export class VisionGate {
  async screenshotFor(
    page: Pick<Page, 'screenshot' | 'viewportSize'>,
    observation: Pick<Observation, 'confidence'>,
    signal: AbortSignal,
    asked?: AskedLook,
  ): Promise<Screenshot | undefined> {
    const fired = firedReasons(observation.confidence);
    if (asked)
      return this.askedShot(
        page,
        asked,
        fired.map(r => r.reason(observation.confidence)),
        signal,
      );
    if (fired.length === 0) return undefined;
    const clip = screenshotBand(unionOf(fired.map(r => r.region(observation.confidence))), page.viewportSize());
    const png = await viewportShot(page, signal, clip);
    return png ? { png, reasons: fired.map(r => r.reason(observation.confidence)), band: clip !== undefined } : undefined;
  }

  /** The model's own screenshot, with the page's reasons besides (they say what to look for in it). */
  private async askedShot(
    page: Pick<Page, 'screenshot' | 'viewportSize'>,
    asked: AskedLook,
    reasons: string[],
    signal: AbortSignal,
  ): Promise<Screenshot | undefined> {
    const why = `you took the screenshot "${asked.label}" at step ${asked.step} to look at the page`;
    const saved = readPng(asked.path);
    const viewport = page.viewportSize();
    if (saved && viewport && saved.width <= viewport.width && saved.height <= viewport.height)
      return { png: saved.png, reasons: [why, ...reasons], band: false, taken: asked.filename };
    const png = await viewportShot(page, signal, undefined);
    const larger = saved
      ? ` (${asked.filename}, ${saved.width} × ${saved.height} px, is larger than one decision's image: this is the viewport now)`
      : '';
    return png ? { png, reasons: [`${why}${larger}`, ...reasons], band: false } : undefined;
  }
}

/** Animations stopped and the caret hidden: the pixels of the page as it stands, not of a frame in between. */
async function viewportShot(page: Pick<Page, 'screenshot'>, signal: AbortSignal, clip: Region): Promise<Buffer | undefined> {
  return page
    .screenshot({ type: 'png', animations: 'disabled', caret: 'hide', timeout: SCREENSHOT_TIMEOUT_MS, ...(clip ? { clip } : {}) })
    .catch((error: unknown) => {
      if (signal.aborted) throw error;
      return undefined;
    });
}

/** A saved PNG and its size (from its header); undefined when it is gone or is no PNG. */
function readPng(file: string): { png: Buffer; width: number; height: number } | undefined {
  try {
    const png = fs.readFileSync(file);
    if (png.length < 24 || png.subarray(1, 4).toString('latin1') !== 'PNG') return undefined;
    return { png, width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
  } catch {
    return undefined;
  }
}
