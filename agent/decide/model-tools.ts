import type { z } from 'zod';
import { actionHas, actionNames, toolDefinitions, type ToolDefinition } from '../actions/registry';
import { TargetArg } from '../actions/targets/target';

/**
 * The tools Claude sees, identical on every request of a sample (tools open the cached prefix): every action,
 * whatever the step allows. The action schemas also accept structured locators (what recipes replay); a model
 * points with refs, so its target is a plain string. How to name a target and what `next_goal` is for are said
 * once in the system prompt (TOOL_CONVENTIONS), not in every tool: a target keeps only a description of its own
 * ("the link or button that starts it"), the generic one is dropped. The last tool carries a cache breakpoint, so
 * the tools alone are a prefix other tasks of the run can read.
 */
export type ModelTool = ToolDefinition & { cache_control?: { type: 'ephemeral' } };

export function modelToolDefinitions(reflection: z.ZodObject, names: readonly string[] = actionNames()): ModelTool[] {
  const tools: ModelTool[] = toolDefinitions(names, reflection).map(tool => {
    const input_schema = compactSchema(actionHas(tool.name, 'terminal') ? withoutNextGoal(tool.input_schema) : tool.input_schema);
    const properties = input_schema.properties as Record<string, Record<string, unknown>> | undefined;
    if (!properties?.target) return { ...tool, input_schema };
    const own = properties.target.description;
    const target = typeof own === 'string' && own !== TargetArg.description ? { type: 'string', description: own } : { type: 'string' };
    return { ...tool, input_schema: { ...input_schema, properties: { ...properties, target } } };
  });
  const last = tools[tools.length - 1];
  if (last) tools[tools.length - 1] = { ...last, cache_control: { type: 'ephemeral' } };
  return tools;
}

/** done and fail end the sample: there is no next goal to state. */
function withoutNextGoal(schema: ToolDefinition['input_schema']): ToolDefinition['input_schema'] {
  const { next_goal: _none, ...properties } = (schema.properties ?? {}) as Record<string, unknown>;
  const required = (schema.required as string[] | undefined)?.filter(key => key !== 'next_goal');
  return { ...schema, properties, ...(required ? { required } : {}) };
}

/** Limits the dispatcher enforces, naming them when an argument breaks one: a model never needs them up front. */
const ENFORCED_LIMITS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems']);

/**
 * JSON Schema that says what is already the default — `propertyNames: {type: string}` and an empty
 * `additionalProperties` on free-form objects — or a limit the dispatcher checks anyway costs tokens on every
 * request and tells the model nothing it needs before it calls (an argument out of bounds comes back as an error
 * that names the bound).
 */
function compactSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(compactSchema) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ENFORCED_LIMITS.has(key) && typeof value === 'number') continue;
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    if (key === 'additionalProperties' && JSON.stringify(value) === '{}') continue;
    out[key] = compactSchema(value);
  }
  return out as T;
}
