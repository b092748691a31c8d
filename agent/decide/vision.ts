import type Anthropic from '@anthropic-ai/sdk';
import type { VisionHook } from '../snapshot';
import type { ModelClient } from './model-client';
import type { Usage } from '../evidence/result-schema';

/**
 * A targeted question about a screenshot, through the same client (and usage accounting) as the decider.
 * `context` (see sampleContext) names the sample in the system prompt, as step summaries do, so the
 * request can be attributed to its sample (usage logs, the scripted test server).
 */
export function visionHook(client: ModelClient, onUsage: (usage: Usage) => void, context?: string): VisionHook {
  return async (question, png, signal) => {
    const reply = await client.create(
      {
        max_tokens: 400,
        ...(context ? { system: context } : {}),
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
      { purpose: 'vision', signal },
    );
    onUsage(reply.usage);
    return reply.message.content
      .filter((block): block is Anthropic.TextBlock => block.type === 'text')
      .map(block => block.text)
      .join('\n')
      .trim();
  };
}
