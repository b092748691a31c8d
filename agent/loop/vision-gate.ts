import type { Page } from '@playwright/test';
import { sha256 } from '../evidence/hash';
import { buildVisionQuestion, VISION_SECTION_TITLE, type AskVision, type VisionAnswer } from '../decide/vision';
import type { DomConfidence, Observation } from '../snapshot';

/** Below this DOM confidence a screenshot may hold what the tree lacks. */
export const VISION_THRESHOLD = 0.6;
/** Unusable answers in a row after which the sample stops asking: a model that cannot see must not be asked every step. */
export const MAX_UNUSABLE_ANSWERS = 2;
const SCREENSHOT_TIMEOUT_MS = 10_000;
/** Below this much text in the viewport, a large picture may be what carries the page's words. */
const SPARSE_VIEWPORT_TEXT = 400;

/**
 * Why the tree is not enough, in terms a screenshot can resolve. A low score for any other reason (a sparse
 * page, a page still loading) is not one: its text is in the tree, and a screenshot would only repeat it.
 */
const SCREENSHOT_REASONS: ReadonlyArray<{ applies: (c: DomConfidence) => boolean; reason: (c: DomConfidence) => string }> = [
  {
    applies: c => c.canvasShare >= 0.1,
    reason: c => `a canvas covers ${Math.round(c.canvasShare * 100)}% of the viewport (drawn content is not in the tree)`,
  },
  // A photo beside an article's text adds nothing the task needs; a picture that is most of what the viewport
  // shows (a scanned page, a notice set as an image) may hold the very words the task is after.
  {
    applies: c => c.unnamedImageShare >= 0.25 && c.viewportTextChars < SPARSE_VIEWPORT_TEXT,
    reason: c =>
      `pictures without a text alternative cover ${Math.round(c.unnamedImageShare * 100)}% of the viewport (text or content set as an image is not in the tree)`,
  },
  {
    applies: c => c.svgOnlyIcons > 0 && c.svgOnlyIcons >= 0.25 * Math.max(1, c.interactive),
    reason: c => `${c.svgOnlyIcons} icon(s) shown only as unlabeled SVG (status or meaning carried by shape or colour)`,
  },
  {
    applies: c => c.unlabeledInteractive > 0 && c.unlabeledInteractive >= 0.2 * Math.max(1, c.interactive),
    reason: c => `${c.unlabeledInteractive} of ${c.interactive} controls have no name`,
  },
];

export function visionReasons(confidence: DomConfidence, threshold = VISION_THRESHOLD): string[] {
  if (confidence.score >= threshold) return [];
  return SCREENSHOT_REASONS.filter(r => r.applies(confidence)).map(r => r.reason(confidence));
}

export interface VisionGateOptions {
  goal: string;
  /** A problem worth a reviewer's attention (an unusable answer, vision switched off), with its step. */
  onNote: (note: string) => void;
  threshold?: number;
}

/** What the gate did over a sample: asked, answered from its cache, or skipped because nothing called for it. */
export interface VisionStats {
  asked: number;
  reused: number;
  unusable: number;
}

/**
 * Decides, per observation, whether a screenshot can add something, and asks at most once per visible state:
 * answers are cached for the sample by sha256(screenshot bytes, page-state text), so an unchanged page reuses
 * its answer (an unusable one included: it is not asked again either) until something visible changes.
 */
export class VisionGate {
  readonly stats: VisionStats = { asked: 0, reused: 0, unusable: 0 };
  private readonly answers = new Map<string, VisionAnswer>();
  private unusableInARow = 0;
  private switchedOff = false;

  constructor(
    private readonly ask: AskVision,
    private readonly options: VisionGateOptions,
  ) {}

  /** The section to append to the page state, or undefined when vision has nothing to add. */
  async look(
    page: Pick<Page, 'screenshot'>,
    observation: Pick<Observation, 'confidence' | 'text'>,
    step: number,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    if (this.switchedOff) return undefined;
    const reasons = visionReasons(observation.confidence, this.options.threshold);
    if (reasons.length === 0) return undefined;
    // Animations stopped and the caret hidden: an unchanged page gives the same bytes, so the cache holds.
    const png = await page
      .screenshot({ type: 'png', animations: 'disabled', caret: 'hide', timeout: SCREENSHOT_TIMEOUT_MS })
      .catch((error: unknown) => {
        if (signal.aborted) throw error;
        return undefined;
      });
    if (!png) return undefined;
    const key = sha256(Buffer.concat([png, Buffer.from(`\u0000${observation.text}`)]));
    let answer = this.answers.get(key);
    if (answer) this.stats.reused += 1;
    else {
      answer = await this.askOnce(buildVisionQuestion(this.options.goal, reasons, observation.text), png, signal);
      this.answers.set(key, answer);
      this.afterAnswer(answer, step);
    }
    return sectionFor(answer);
  }

  private async askOnce(question: string, png: Buffer, signal: AbortSignal): Promise<VisionAnswer> {
    this.stats.asked += 1;
    try {
      return await this.ask(question, png, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      return { kind: 'unusable', problem: `the call failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}` };
    }
  }

  private afterAnswer(answer: VisionAnswer, step: number): void {
    if (answer.kind !== 'unusable') {
      this.unusableInARow = 0;
      return;
    }
    this.stats.unusable += 1;
    this.unusableInARow += 1;
    this.options.onNote(`step ${step}: vision answer not used — ${answer.problem}`);
    if (this.unusableInARow >= MAX_UNUSABLE_ANSWERS) {
      this.switchedOff = true;
      this.options.onNote(`vision switched off for this sample after ${MAX_UNUSABLE_ANSWERS} unusable answers in a row`);
    }
  }
}

function sectionFor(answer: VisionAnswer): string | undefined {
  if (answer.kind === 'facts') return `${VISION_SECTION_TITLE}\n${answer.text}`;
  if (answer.kind === 'unusable')
    return 'Visual observations unavailable: part of this page is shown only as pixels (icons, a chart, unnamed controls) and the screenshot could not be read.';
  return undefined;
}
