import type Anthropic from '@anthropic-ai/sdk';
import type { Usage } from '../evidence/usage';
import type { ModelClient } from './model-client';
import type { RequestRoute } from './request-route';

export const VISION_SECTION_TITLE = 'Visual observations (from screenshot, not DOM):';
export const VISION_DOM_CONTEXT_CHARS = 1000;
const MAX_ANSWER_CHARS = 1500;
const NOTHING = 'NONE';

/** The targeted question: the goal, why the DOM is not enough here, and what it already shows. */
export function buildVisionQuestion(goal: string, reasons: readonly string[], domText: string): string {
  return [
    `Task goal: '${goal}'.`,
    `The page's accessibility tree cannot show everything here: ${reasons.join('; ')}.`,
    'What does this screenshot show that the DOM text below does not capture? Focus on status icons, color-coded',
    'badges, visual indicators, charts, and any text rendered as images or SVGs.',
    `Answer with one short line per fact ("- <element>: <what it shows>"), or exactly ${NOTHING} if the screenshot adds nothing.`,
    '',
    `DOM text:\n${domText.slice(0, VISION_DOM_CONTEXT_CHARS)}`,
  ].join('\n');
}

/** A usable answer adds facts or says there are none; anything else is recorded and left out. */
export type VisionAnswer = { kind: 'facts'; text: string } | { kind: 'nothing' } | { kind: 'unusable'; problem: string };

const REFUSAL = /^(?:i(?:'m| am)? (?:sorry|unable|not able)|i can(?:not|'t)|sorry\b|unable to\b|as an ai\b)/i;

/** Reads the model's answer: empty, refusing, without any text, or not words at all is unusable. */
export function readVisionAnswer(message: Pick<Anthropic.Message, 'content' | 'stop_reason'>): VisionAnswer {
  if (message.stop_reason === 'refusal') return { kind: 'unusable', problem: 'the model refused to answer (stop_reason refusal)' };
  const texts = message.content.filter((block): block is Anthropic.TextBlock => block.type === 'text');
  if (texts.length === 0)
    return { kind: 'unusable', problem: `no text in the answer (${message.content.map(b => b.type).join(', ') || 'empty content'})` };
  const text = texts
    .map(block => block.text)
    .join('\n')
    .trim();
  if (!text) return { kind: 'unusable', problem: 'the answer was empty' };
  if (REFUSAL.test(text)) return { kind: 'unusable', problem: `the model declined: "${text.slice(0, 80).replace(/\s+/g, ' ')}"` };
  if (new RegExp(`^${NOTHING}\\W*$`, 'i').test(text)) return { kind: 'nothing' };
  if (!/\p{L}{2}/u.test(text)) return { kind: 'unusable', problem: `not an answer: "${text.slice(0, 40)}"` };
  const cut = message.stop_reason === 'max_tokens' ? ' … (answer cut)' : '';
  return { kind: 'facts', text: text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS)}…` : `${text}${cut}` };
}

export type AskVision = (question: string, png: Buffer, signal: AbortSignal) => Promise<VisionAnswer>;

/**
 * One question about one screenshot, through the client every call goes through (usage filed as vision). No
 * fallback model: a vision answer is optional, and one failed call must not become two.
 * `route` names the sample the question is about.
 */
export function visionAsker(client: ModelClient, onUsage: (usage: Usage) => void, route?: RequestRoute): AskVision {
  return async (question, png, signal) => {
    const reply = await client.create(
      {
        max_tokens: 400,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } },
              { type: 'text', text: question },
            ],
          },
        ],
      },
      { purpose: 'vision', signal, allowFallback: false, route },
    );
    onUsage(reply.usage);
    return readVisionAnswer(reply.message);
  };
}
