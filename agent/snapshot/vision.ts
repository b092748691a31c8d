import { abortable } from './abort';
import type { ObservePage, VisionHook } from './types';

export const DEFAULT_VISION_THRESHOLD = 0.6;
export const VISION_DOM_CONTEXT_CHARS = 1000;
export const VISION_SECTION_TITLE = 'Visual observations (from screenshot, not DOM):';

/** The seeds' targeted question: what the DOM already captured, the goal, and what visual facts are missing. */
export function buildVisionQuestion(goal: string, domText: string): string {
  return [
    'The DOM shows interactive elements but some visual information is missing. ',
    `Based on the task goal: '${goal}', `,
    'what information is visible in this screenshot that the following DOM text does not capture?\n\n',
    `DOM text:\n${domText.slice(0, VISION_DOM_CONTEXT_CHARS)}\n\n`,
    'Focus on: status icons, color-coded badges, visual indicators, ',
    'and any text rendered as images or SVGs.',
  ].join('');
}

export type VisionOutcome =
  | { ok: true; question: string; answer: string; section: string }
  | { ok: false; section: string };

/** One viewport screenshot, one question. A failing hook becomes a one-line note, never a throw. */
export async function askVision(page: ObservePage, hook: VisionHook, goal: string, domText: string, signal?: AbortSignal): Promise<VisionOutcome> {
  const question = buildVisionQuestion(goal, domText);
  try {
    const screenshot = await abortable(page.screenshot({ type: 'png' }), signal);
    const answer = (await hook(question, screenshot, signal)).trim();
    return { ok: true, question, answer, section: `${VISION_SECTION_TITLE}\n${answer}` };
  } catch (error) {
    if (signal?.aborted) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, section: `Visual observations unavailable: ${message.split('\n')[0]}` };
  }
}
