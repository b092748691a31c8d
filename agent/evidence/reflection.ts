import { z } from 'zod';

/** What the model may say about each step besides its action (AGENT_REFLECTION): the keys, once, in prompt order. */
export const REFLECTION_KEYS = ['evaluation_previous_step', 'memory_update', 'next_goal'] as const;
export type ReflectionKey = (typeof REFLECTION_KEYS)[number];

/** As logged in action_log.json: each key the model gave. */
export const Reflection = z.object({
  evaluation_previous_step: z.string().optional(),
  memory_update: z.string().optional(),
  next_goal: z.string().optional(),
} satisfies Record<ReflectionKey, z.ZodType>);
export type Reflection = z.infer<typeof Reflection>;

export function isReflectionKey(key: string): key is ReflectionKey {
  return (REFLECTION_KEYS as readonly string[]).includes(key);
}
