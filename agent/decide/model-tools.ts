import type { z } from 'zod';
import { toolDefinitions, type ToolDefinition } from '../actions/registry';

const MODEL_TARGET = {
  type: 'string',
  description: 'The element: its ref from the page state (e.g. "e12" or "f1e3"), else its exact visible text; "css=<selector>" only as a last resort',
};

/**
 * The tools Claude sees. The action schemas also accept structured locators (what recipes replay); a model
 * points with refs, so its target is a plain string — a third of the tokens, and one way to say it.
 */
export function modelToolDefinitions(names: readonly string[], reflection: z.ZodObject): ToolDefinition[] {
  return toolDefinitions(names, reflection).map(tool => {
    const properties = tool.input_schema.properties as Record<string, Record<string, unknown>> | undefined;
    if (!properties?.target) return tool;
    const own = typeof properties.target.description === 'string' ? properties.target.description : '';
    const description = own && !own.startsWith('The element') ? `${own} — a ref like "e12", else exact visible text` : MODEL_TARGET.description;
    return { ...tool, input_schema: { ...tool.input_schema, properties: { ...properties, target: { type: 'string', description } } } };
  });
}
