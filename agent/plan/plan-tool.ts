import { z } from 'zod';
import type { ToolDefinition } from '../actions/registry';
import { TaskSpecSchema } from '../task/schema';

export const PLAN_TOOL = 'emit_task_plan';

/** Above this many items with their own pages, samples are discovered by browsing instead of listed. */
export const DISCOVERY_THRESHOLD = 10;

const SampleRow = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

/** The tool's envelope; `task` itself is checked by TaskSpecSchema, the one schema every task file meets. */
export const PlanInput = z.object({
  needs_discovery: z
    .boolean()
    .describe(
      `true when the request covers more than ${DISCOVERY_THRESHOLD} items that each have their own page and must be found by browsing a listing`,
    ),
  task: z.record(z.string(), z.unknown()).describe('The task spec'),
  samples: z
    .array(SampleRow)
    .optional()
    .describe('The samples CSV rows when needs_discovery is false: "sample_id" plus one key per input_schema column'),
  notes: z.string().optional().describe('Assumptions the user should check (one or two sentences)'),
});
export type PlanInput = z.output<typeof PlanInput>;

/** Task fields a planner must not write: a recipe needs the page, which the planner has not seen. */
const NOT_PLANNED = ['$schema', 'recipe'];

/** emit_task_plan: the task property is the task JSON Schema (without the recipe), so the model writes a valid spec. */
export function planToolDefinition(): ToolDefinition {
  const { $schema: _dialect, ...envelope } = z.toJSONSchema(PlanInput, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const task = z.toJSONSchema(TaskSpecSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const { $schema: _taskDialect, ...taskSchema } = task;
  const properties = { ...(taskSchema.properties as Record<string, unknown>) };
  for (const key of NOT_PLANNED) delete properties[key];
  const envelopeProperties = envelope.properties as Record<string, Record<string, unknown>>;
  return {
    name: PLAN_TOOL,
    description: 'Emit the complete task plan: a task spec, plus either its samples or (needs_discovery) a discover block inside the task.',
    input_schema: {
      ...envelope,
      type: 'object',
      properties: { ...envelopeProperties, task: { ...taskSchema, properties, description: envelopeProperties.task?.description } },
    },
  };
}
