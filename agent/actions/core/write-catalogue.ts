import * as path from 'node:path';
import { writeGenerated } from '../../fs/generated-file';
import { CAUSED_REQUESTS_MS } from './limits';
import { actionNames, actionsWith, endsBatch, getAction, mayStartRequests, toolDefinitions } from '../registry';
import { PACKAGE_ROOT } from '../../fs/package-root';

export const CATALOGUE_FILE = path.join(PACKAGE_ROOT, 'docs', 'actions.md');

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minimum?: number;
  maximum?: number;
}

/**
 * docs/actions.md, generated from the registry: every action with the arguments the model is shown (the
 * same JSON schemas it receives) and what it verifies (the `verifies` on its definition).
 */
export function renderActionCatalogue(): string {
  const sections = toolDefinitions().map(tool => {
    const action = getAction(tool.name)!;
    const schema = tool.input_schema as JsonSchema;
    const required = new Set(schema.required ?? []);
    const rows = Object.entries(schema.properties ?? {}).map(
      ([name, property]) => `| \`${name}\` | ${typeOf(property)} | ${required.has(name) ? 'yes' : ''} | ${cell(property.description ?? '')} |`,
    );
    const args = rows.length ? ['| argument | type | required | meaning |', '|---|---|---|---|', ...rows].join('\n') : 'No arguments.';
    const traits = [
      action.navigates ? 'May load a new document: the page is left to settle afterwards.' : '',
      action.pageStateOnly ? 'Changes only what the next page state shows; a recipe never replays it.' : '',
      mayStartRequests(action.name)
        ? `Waits up to ${CAUSED_REQUESTS_MS / 1000} s for the data requests it started on the task's sites (a list's next batch, suggestions), so the next page state shows what they loaded.`
        : '',
      endsBatch(action.name) ? 'Ends a batch: actions given after it in the same turn are not run.' : '',
      action.independent ? 'In a recipe, a failure costs only this step: the recipe goes on (see above).' : '',
    ]
      .filter(Boolean)
      .map(trait => `\n\n${trait}`)
      .join('');
    return `## \`${tool.name}\`\n\n${markdown(tool.description)}\n\n${args}\n\n**Verifies:** ${markdown(action.verifies)}${traits}`;
  });
  return `# Actions

Generated from \`agent/actions/registry.ts\` by \`npm run actions:doc\` — do not edit by hand. The model sees the
same names, descriptions and argument schemas as tools; recipes use the same actions, where a target may also be
a structured locator (\`{role, name}\`, \`{label}\`, \`{text}\`, \`{placeholder}\`, \`{testId}\`, \`{css}\`).

A target is a ref from the page state (\`e12\`), the element's visible text, \`role "name"\` as the page state
prints it, or \`css=<selector>\` as a last resort. Every action either does what it says or fails with a message
that says why and what to do next; an effect that did not happen is a failure, not a success.

**One element per target.** A target points at exactly one element (\`extract\` with \`all\` reads every match).
A name or text is matched exactly first, then as a part. When several elements match, the one visible among them,
or the one control (link, button, field…) among them, is meant; otherwise the step fails, saying how many match
and showing the first few (tag, an attribute that tells them apart, text). In a recipe, pick one with
\`"nth": <n>\` (0-based, in page order, hidden matches counted) or \`"first": true\` in the locator, or write a
narrower locator (the message suggests a CSS selector that matches that element alone, when there is one).
Messages for a recipe's steps name locators; messages for the model name refs and the page state.

**A recipe goes on past a failed read.** A step no later step depends on (${actionsWith('independent')
    .map(name => `\`${name}\``)
    .join(', ')}) costs only itself when it fails: the recipe goes on, and \`result.json\`'s \`failed_steps\` says which step
failed and why (a done then becomes \`needs_review\`). Any other step that fails stops the recipe (with a model, it
takes over from there). A step marked \`"optional": true\` never fails the recipe.

Actions: ${actionNames()
    .map(name => `[\`${name}\`](#${name})`)
    .join(', ')}.

${sections.join('\n\n')}
`;
}

function typeOf(schema: JsonSchema): string {
  if (schema.enum) return schema.enum.map(v => `\`${JSON.stringify(v)}\``).join(' \\| ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' or ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : (schema.type ?? 'any');
  if (type === 'array') return `list of ${schema.items ? typeOf(schema.items) : 'any'}`;
  const max = schema.maximum !== undefined && schema.maximum < Number.MAX_SAFE_INTEGER ? schema.maximum : undefined;
  if (schema.minimum !== undefined && max !== undefined) return `${type} (${schema.minimum}–${max})`;
  if (schema.minimum !== undefined) return `${type} (≥ ${schema.minimum})`;
  return max !== undefined ? `${type} (≤ ${max})` : type;
}

/** Prose from the registry as markdown text: an `<select>` in it is a word, not an HTML tag. */
function markdown(text: string): string {
  return text.replace(/</g, '\\<');
}

function cell(text: string): string {
  return markdown(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

if (require.main === module) writeGenerated(CATALOGUE_FILE, renderActionCatalogue(), 'npm run actions:doc');
