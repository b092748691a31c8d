import type Anthropic from '@anthropic-ai/sdk';
import type { VisionHook } from '../snapshot';
import type { ModelClient } from './model-client';
import type { Usage } from '../evidence/result-schema';

/** A targeted question about a screenshot, through the same client (and usage accounting) as the decider. */
export function visionHook(client: ModelClient, onUsage: (usage: Usage) => void): VisionHook {
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
      { signal },
    );
    onUsage(reply.usage);
    return reply.message.content
      .filter((block): block is Anthropic.TextBlock => block.type === 'text')
      .map(block => block.text)
      .join('\n')
      .trim();
  };
}
