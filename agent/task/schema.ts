import { z } from 'zod';
import { ACTION_NAMES } from '../actions/names';
import { DisagreementRule } from '../evidence/result-schema';
import { DocumentFactTarget, SemanticLocator } from './locator-schema';
import { typeProblem } from './type-grammar';
import { malformedPlaceholders, notAPlaceholder, PLACEHOLDER_NAME } from '../secrets/placeholders';

/** "string | null", "number", "array", "boolean | null", "yes | no | inconclusive" …, or a nested list/object of them (grammar: type-grammar.ts). */
const TypeDescriptor = z.union([z.string().min(1), z.array(z.string()), z.record(z.string(), z.unknown())]);

const Target = z.union([z.string().min(1), SemanticLocator, DocumentFactTarget]);

// Typed as text: a step's action is checked against the list here and read as a string everywhere else.
const ActionName = z.enum(ACTION_NAMES as readonly string[] as [string, ...string[]], {
  error: issue => `unknown action ${JSON.stringify(issue.input)} (expected one of: ${ACTION_NAMES.join(', ')})`,
});

export const RecipeStep = z
  .object({
    action: ActionName.describe('Action name from the action vocabulary (docs/actions.md)'),
    target: Target.optional().describe(
      'Element to act on: a semantic locator, or a string (visible text / css=…); for extract also a fact the page says about itself ({"document": "meta", "key": "article:published_time"})',
    ),
    expect_url: z.string().optional().describe('Regular expression the page URL must match after this step'),
    optional: z.boolean().optional().describe('A failure of this step does not stop the recipe'),
  })
  .catchall(z.unknown())
  .describe('One recorded action; other keys are the action arguments ({{column}} templates allowed)');

const RecordSource = z.strictObject({
  from: z.enum(['url', 'text', 'attribute']).describe("Read the value from the item link's URL, its visible text, or one of its attributes"),
  attribute: z.string().min(1).optional().describe('Attribute name when from is "attribute" (e.g. "data-id")'),
  pattern: z.string().optional().describe('Regex with one group: the value is that group of the first match (no match = empty)'),
});

const DiscoverBlock = z.strictObject({
  start_url: z.string().min(1).describe('Listing page to browse'),
  item: z.string().min(1).describe('What one item is, in words (e.g. "a member profile link")'),
  item_link: SemanticLocator.optional().describe('Locator matching every item link on a listing page (recipe mode, no model needed)'),
  record: z.record(z.string(), z.string()).default({}).describe('Columns to record per item: column → what it holds (the model fills them)'),
  record_from: z
    .record(z.string(), RecordSource)
    .default({})
    .describe('How a column is read from the item link without a model (recipe mode; also fills what the model left out)'),
  id_from: z.string().default('url').describe('Column (or "url") the sample_id is derived from'),
  id_pattern: z.string().optional().describe('Regex with one group applied to id_from to make the sample_id'),
  next: SemanticLocator.optional().describe('The "next page" link or "load more" button (recipe mode); absent = scroll for more'),
  mode: z
    .enum(['pagination', 'load_more', 'infinite_scroll', 'auto'])
    .default('auto')
    .describe('How the listing shows more items; auto = a "next" with a URL paginates, one without loads more, no "next" scrolls'),
  max_items: z.number().int().positive().default(500).describe('Cap on discovered items'),
  max_pages: z.number().int().positive().default(50).describe('Cap on pages (or load-more clicks / scroll batches)'),
});

const WebServer = z.strictObject({
  command: z.string().min(1).describe('Shell command, run from the project root, that starts the server (e.g. "npx tsx fixtures/serve.ts people")'),
  url: z.url().describe('A URL that answers below 400 once the server is up (e.g. its /health page); already answering = reused'),
  timeout_seconds: z.number().int().positive().default(60).describe('How long to wait for url after starting'),
});

export const TASK_ID_RULE = 'lowercase letters, digits, "_" or "-", starting with a letter or digit, at most 64 chars';
export const TaskId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, TASK_ID_RULE);

export const TaskSpecSchema = z
  .strictObject({
    $schema: z.string().optional(),
    $comment: z
      .union([z.string(), z.array(z.string())])
      .optional()
      .describe('Notes for people editing the spec (ignored by bwa)'),
    task_id: TaskId.describe('Unique id; also the Playwright tag (@task_id) and the reports folder name'),
    phase: z.enum(['discovery', 'execution']).default('execution'),
    description: z.string().optional(),
    start_url: z.string().min(1).describe('First URL; {{column}} templates are filled from the sample row'),
    system_prompt: z.string().min(1).describe('Task instructions for the model (static, prompt-cached)'),
    goal: z.string().min(1).describe('What to collect and when to stop, in plain words'),
    keywords: z.array(z.string().min(1)).default([]).describe('Terms that make page nodes relevant (pruning boost)'),
    output_schema: z.record(z.string(), TypeDescriptor).describe('Field → type descriptor, e.g. "string | null"'),
    input_schema: z.record(z.string(), TypeDescriptor).default({}).describe('CSV column → type; sample_id is implicit'),
    max_steps: z.number().int().min(1).max(500).default(25),
    max_time_seconds: z
      .number()
      .int()
      .min(5)
      .max(24 * 3600)
      .default(300),
    expected_items: z.number().int().positive().nullable().default(null),
    max_consecutive_network_errors: z.number().int().min(1).default(5),
    required_fields: z.array(z.string()).default([]),
    required_artifacts: z.array(z.string()).default([]).describe('Screenshot labels that must exist when done'),
    read_values: z
      .boolean()
      .default(false)
      .describe(
        'Output values must be read from the page (extract) or derived from reads: a value the model only states in done sends the sample to review',
      ),
    when_reads_disagree: z
      .record(z.string(), DisagreementRule)
      .default({})
      .describe(
        'Per output field ("*" for every field): how reads of one field from different places that give different values are settled. "review" (the default): the first read stays and the sample goes to review naming every read; "first" / "last": that read wins; "page": what the page shows (an element) over its metadata (meta, JSON-LD); "metadata": the reverse. Every read is recorded in result.json either way',
      ),
    judgment_required: z.boolean().default(false),
    judgment_question: z.string().nullable().default(null),
    judgment_output_schema: z.record(z.string(), TypeDescriptor).nullable().default(null),
    pagination: z.boolean().default(false),
    stop_condition: z.string().nullable().default(null),
    auth_profile: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, 'a plain name (letters, digits, "_", "-")')
      .nullable()
      .default(null)
      .describe(
        'Sign-in profile: tasks/auth/<name>.json (steps, signed in once per run), or a storage state imported with `npx bwa auth import <name> <file>`',
      ),
    web_servers: z
      .array(WebServer)
      .default([])
      .describe('Local servers the task needs (e.g. the bundled stand-in sites): started before a run only when a selected task needs them'),
    rate_limits: z
      .record(z.string(), z.number().nonnegative())
      .default({})
      .describe('Minimum seconds between navigations per host ("default" applies to all others)'),
    allowed_domains: z
      .array(z.string().min(1))
      .min(1)
      .describe('Hosts the agent may visit: "example.com" (and subdomains), "127.0.0.1:4101" (exact host:port)'),
    secret_sites: z
      .record(z.string().regex(PLACEHOLDER_NAME, 'a secret name: letters, digits and _'), z.array(z.string().min(1)).min(1))
      .optional()
      .describe(
        "Secret → the hosts it may be typed on (allowed_domains notation). Default: the start page's host for a secret the task names, the auth profile's allowed_domains for one its steps name; a secret neither names is typed nowhere",
      ),
    dialog_policy: z.enum(['accept', 'dismiss']).default('dismiss').describe('How JavaScript dialogs are answered'),
    recipe: z
      .array(RecipeStep)
      .optional()
      .describe(
        'Recorded actions replayed without a model. A recipe compiled from a model run (npx bwa recipe compile, or AGENT_RECORD=1) is stored beside the spec in recipes/<task_id>.json instead, keyed by the hash of this spec without its recipe, and replaces this one while fresh',
      ),
    discover: DiscoverBlock.optional(),
  })
  .superRefine((spec, ctx) => {
    for (const key of ['output_schema', 'input_schema', 'judgment_output_schema'] as const)
      for (const [field, descriptor] of Object.entries(spec[key] ?? {})) {
        const problem = typeProblem(descriptor);
        if (problem) ctx.addIssue({ code: 'custom', path: [key, field], message: problem });
      }
    const fields = new Set(Object.keys(spec.output_schema));
    for (const field of Object.keys(spec.when_reads_disagree))
      if (field !== '*' && !fields.has(field))
        ctx.addIssue({ code: 'custom', path: ['when_reads_disagree', field], message: `"${field}" is not a key of output_schema (or "*")` });
    spec.required_fields.forEach((field, i) => {
      if (!fields.has(field)) ctx.addIssue({ code: 'custom', path: ['required_fields', i], message: `"${field}" is not a key of output_schema` });
    });
    if (spec.judgment_required && !spec.judgment_question)
      ctx.addIssue({ code: 'custom', path: ['judgment_question'], message: 'required when judgment_required is true' });
    if (spec.input_schema.sample_id !== undefined)
      ctx.addIssue({ code: 'custom', path: ['input_schema', 'sample_id'], message: 'sample_id is implicit; do not declare it' });
    for (const { path, text } of stringsOf(spec))
      for (const bad of malformedPlaceholders(text)) ctx.addIssue({ code: 'custom', path, message: notAPlaceholder(bad) });
  });

/** Every string of a spec with its JSON path. */
function stringsOf(value: unknown, path: Array<string | number> = []): Array<{ path: Array<string | number>; text: string }> {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringsOf(item, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => stringsOf(item, [...path, key]));
  return [];
}

export type TaskSpec = z.output<typeof TaskSpecSchema>;
export type TaskSpecInput = z.input<typeof TaskSpecSchema>;
export type RecipeStep = z.output<typeof RecipeStep>;
export type DiscoverBlock = z.output<typeof DiscoverBlock>;
export type RecordSource = z.output<typeof RecordSource>;
