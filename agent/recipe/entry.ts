import { z } from 'zod';
import { RecipeStep } from '../task/schema';

/** Bumped when the stored shape or the meaning of a step changes: an entry of another format is a miss. */
export const RECIPE_FORMAT = 1;

export const FieldBinding = z.object({
  /** Index in steps of the extract (or done) that produces the field; none when only the model knows it. */
  step: z.number().int().nonnegative().optional(),
  how: z
    .enum(['dom', 'row', 'constant', 'unbound'])
    .describe(
      'dom: read by an extract step; row: a {{column}} template; constant: the same stated value on every sample checked; unbound: only the model knows it',
    ),
  locator: z.string().optional(),
  pattern: z.string().optional(),
});
export type FieldBinding = z.infer<typeof FieldBinding>;

export const Revision = z.object({
  revision: z.number().int().positive(),
  at: z.string(),
  run_id: z.string(),
  sample_id: z.string(),
  reason: z.string(),
});

/**
 * One compiled recipe as stored: keyed by the task spec's hash (LoadedTask.hash, the spec without its recipe) and
 * the hash of the spec's own recipe beside it, so editing the task or its recipe makes the entry stale; revisions
 * count self-heal rewrites.
 */
export const RecipeEntry = z.object({
  format: z.literal(RECIPE_FORMAT),
  task_id: z.string(),
  task_hash: z.string(),
  /**
   * LoadedTask.recipeHash when it was compiled (null: the spec had no recipe). An author who edits their recipe
   * means it to run: the entry compiled beside the old one is stale. Absent in entries written before it was kept.
   */
  spec_recipe_hash: z.string().nullable().optional(),
  revision: z.number().int().positive(),
  compiled_at: z.string(),
  source: z.object({ run_id: z.string(), sample_id: z.string() }),
  /** The first page as the source sample opened it, row values templated back ({{column}}). */
  start_url: z.string().optional(),
  steps: z.array(RecipeStep).min(1),
  fields: z.record(z.string(), FieldBinding),
  /** Samples the recipe was replayed on before it was saved, and what they reproduced. */
  verified_on: z.array(z.object({ sample_id: z.string(), fields: z.number().int().nonnegative() })),
  notes: z.array(z.string()),
  history: z.array(Revision),
});
export type RecipeEntry = z.infer<typeof RecipeEntry>;
