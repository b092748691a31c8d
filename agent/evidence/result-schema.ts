import { z } from 'zod';
import { Reflection } from './reflection';
import { Usage } from './usage';

export { addUsage, emptyUsage, usageTokens, Usage } from './usage';

export const SAMPLE_STATUSES = ['done', 'partial_success', 'needs_review', 'failed'] as const;
export const SampleStatus = z.enum(SAMPLE_STATUSES);
export type SampleStatus = z.infer<typeof SampleStatus>;

/** One element of a read over several (a ref list, a selector list): which element, and what it showed. */
export const ProvenancePart = z.object({
  ref: z.string().optional(),
  locator: z.string(),
  preview: z.string(),
  text: z.string().optional(),
  reading: z.string().optional(),
});

/** A value a derived one was computed from, as it stood then. */
export const DerivedSource = z.object({ field: z.string(), value: z.unknown(), source: z.string(), step: z.number().int().optional() });

/**
 * Where a value came from. Read: `dom` (an element), `meta` and `json-ld` (what the page says about itself, by `key`).
 * Said: `model` (a value given in done), `stated` (a value given in done where every read found nothing, kept with
 * its `note`), `derived` (computed by `rule` from `sources`). Also `vision`, `input`, `checkpoint`. Every key but
 * source and at is optional, so records written before a key existed still parse.
 */
/** Where a page says a fact about itself (snapshot/document-facts.ts reads them): a meta tag, its JSON-LD, a <time> or microdata element. */
export const DocumentSource = z.enum(['meta', 'json-ld', 'dom']);

export const Provenance = z.object({
  source: z.enum(['dom', 'meta', 'json-ld', 'model', 'stated', 'derived', 'vision', 'input', 'checkpoint']),
  url: z.string().optional(),
  locator: z.string().optional(),
  ref: z.string().optional(),
  /** The metadata key a meta or json-ld value was read at ("article:published_time", "author[0].name"). */
  key: z.string().optional(),
  /** The element's own text, shortened. */
  preview: z.string().optional(),
  /** The words the value was read from when they are not the whole text ("30 avril 2015"). */
  text: z.string().optional(),
  /** How the text was read when that is worth saying (time and zone, relative, an ambiguous order, the year not shown). */
  reading: z.string().optional(),
  /** For a read over several elements: each one. */
  parts: z.array(ProvenancePart).optional(),
  /** The model's note beside a stated value. */
  note: z.string().optional(),
  /** What the reads that found nothing were, beside a stated value. */
  unread: z.string().optional(),
  /** How a derived value was computed, and from what. */
  rule: z.string().optional(),
  sources: z.array(DerivedSource).optional(),
  screenshot: z.string().optional(),
  step: z.number().int().optional(),
  at: z.string(),
});
export type Provenance = z.infer<typeof Provenance>;

/**
 * How reads of one field from different places that give different values are settled (the task's
 * `when_reads_disagree`): "review" keeps the first and sends the sample to a person; "first" and "last" take that read;
 * "page" what the page shows (a dom read) over what its metadata says (meta, json-ld); "metadata" the reverse.
 */
export const DISAGREEMENT_RULES = ['review', 'first', 'last', 'page', 'metadata'] as const;
export const DisagreementRule = z.enum(DISAGREEMENT_RULES);
export type DisagreementRule = z.infer<typeof DisagreementRule>;

/** One read of a field: a field read more than once keeps every read, in order. */
export const FieldRead = z.object({ value: z.unknown(), provenance: Provenance });
export type FieldRead = z.infer<typeof FieldRead>;

export const ReadDisagreement = z.object({
  rule: DisagreementRule,
  /** The read whose value the field holds (an index into `reads`). */
  kept: z.number().int().nonnegative(),
  /** Every place and what it gave, and what was kept: "…" (dom css=.dateline) ≠ "…" (meta article:published_time). */
  note: z.string(),
});
export type ReadDisagreement = z.infer<typeof ReadDisagreement>;

export const ExtractedField = z.object({
  value: z.unknown(),
  provenance: Provenance,
  /** Every read of the field, when there was more than one (the value's own read among them). */
  reads: z.array(FieldRead).optional(),
  /** Reads from different places gave different values: how that was settled. */
  disagreement: ReadDisagreement.optional(),
});
export type ExtractedField = z.infer<typeof ExtractedField>;

export const Artifact = z.object({
  filename: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
  kind: z.enum(['screenshot', 'download', 'file']),
  label: z.string().optional(),
  source_url: z.string(),
  timestamp: z.string(),
  /** What the file leaves out of what was asked (a full page cut at the height cap, the window after a full page timed out). */
  note: z.string().optional(),
});
export type Artifact = z.infer<typeof Artifact>;

/** A recipe step that failed: a step only reading the page lets the recipe go on; one the rest depends on stops it. */
export const FailedStep = z.object({
  /** 1-based, as the recipe lists it. */
  step: z.number().int().positive(),
  action: z.string(),
  /** Which step, in a few words: `extract title ← css=h1`. */
  described: z.string(),
  /** The field an extract was to read: missing from `extracted` for this reason. */
  field: z.string().optional(),
  reason: z.string(),
  stopped_recipe: z.boolean(),
});
export type FailedStep = z.infer<typeof FailedStep>;

export const Result = z.object({
  schema_version: z.literal(1),
  run_id: z.string(),
  task_id: z.string(),
  sample_id: z.string(),
  status: SampleStatus,
  attempt: z.number().int().nonnegative(),
  steps: z.number().int().nonnegative(),
  decider: z.string(),
  input: z.record(z.string(), z.string()),
  output_fields: z.array(z.string()),
  extracted: z.record(z.string(), ExtractedField),
  judgment: z.record(z.string(), z.unknown()).nullable(),
  artifacts: z.array(Artifact),
  notes: z.array(z.string()),
  error: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string(),
  usage: Usage,
  task_hash: z.string(),
  /** Hash of the task spec's own recipe (null without one): with task_hash, the version of the task a sample ran. */
  recipe_hash: z.string().nullable().optional(),
  /** Recipe steps that failed, in order, and why. */
  failed_steps: z.array(FailedStep).optional(),
  resumed_from: z.string().nullable().optional(),
  /** AGENT_JUDGE=batch: the facts are collected and the judgment is left to the batch judge (status needs_review until then). */
  judgment_pending: z.boolean().optional(),
  /** The batch call that gave the judgment: its usage is the whole batch's, shared by its samples. */
  judgment_batch: z.object({ id: z.string(), size: z.number().int().positive(), model: z.string(), at: z.string(), usage: Usage }).optional(),
  /** Where the sample came from when a discovery phase found it (page URL, page number, time). */
  discovery: z.object({ page_url: z.string(), page_number: z.number().int().nullable(), discovered_at: z.string() }).nullable().optional(),
});
export type Result = z.infer<typeof Result>;

export const Checkpoint = z.object({
  sample_id: z.string(),
  task_id: z.string(),
  status: z.union([z.literal('in_progress'), SampleStatus]),
  step: z.number().int().nonnegative(),
  max_steps: z.number().int().nonnegative(),
  accumulated_data: z.record(z.string(), z.unknown()),
  progress_notes: z.array(z.string()),
  artifacts_so_far: z.array(Artifact.pick({ filename: true, sha256: true })),
  steps_logged: z.number().int().nonnegative(),
  updated_at: z.string(),
});
export type Checkpoint = z.infer<typeof Checkpoint>;

export const ActionLogEntry = z.object({
  step: z.number().int(),
  sub_step: z.number().int().optional(),
  timestamp: z.string(),
  decider: z.string(),
  model: z.string().optional(),
  reflection: Reflection.optional(),
  action: z.object({ name: z.string(), args: z.record(z.string(), z.unknown()) }),
  outcome: z.object({
    success: z.boolean(),
    description: z.string(),
    error: z.string().optional(),
    infra: z.boolean().optional(),
  }),
  element: z.string().optional(),
  /** An extract into a field outside the output schema: a value read to check something, kept here and never in the output. */
  check: z.boolean().optional(),
  /** The element acted on as a structured semantic locator ({role,name} | {label} | {text} | …): what a recipe replays. */
  locator: z.record(z.string(), z.unknown()).optional(),
  /** Elements named by other arguments (drag's `to`), by argument name, as semantic locators. */
  arg_locators: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  /** The target as the page state showed it when the action was chosen: what a tip names it by when its locator is a CSS path. */
  target_seen: z.object({ role: z.string(), name: z.string().optional(), text: z.string().optional(), hint: z.string().optional() }).optional(),
  /** Per element argument given by ref(s): where each element sat on the page (a CSS path), read before acting. */
  element_paths: z.record(z.string(), z.array(z.string())).optional(),
  /** An extract of a document-section line (`d3`): the fact it named, by where the page says it, read before acting. */
  document: z.object({ source: DocumentSource, key: z.string() }).optional(),
  url_before: z.string().optional(),
  url_after: z.string().optional(),
  duration_ms: z.number().nonnegative(),
  notices: z.array(z.string()).optional(),
  /** What the model call of this step needed besides its answer (a retry with more room, a fallback model, a cut answer). */
  model_note: z.string().optional(),
});
export type ActionLogEntry = z.infer<typeof ActionLogEntry>;

/**
 * String values of the files above that are bwa's own identifiers, enums, file names, hashes and times — never page
 * data. Masking leaves them as they are, so a secret that happens to equal "done", "dom" or a field name can never
 * make a record unreadable (secrets/masker.ts; paths are dotted, `*` any key or index).
 */
const PROVENANCE_IDENTIFIERS = ['source', 'key', 'ref', 'screenshot', 'step', 'at', 'parts.*.ref', 'sources.*.field', 'sources.*.source'];
export const RESULT_IDENTIFIERS: readonly string[] = [
  'run_id',
  'task_id',
  'sample_id',
  'status',
  'decider',
  // The sample's row as its author wrote it (a resume compares it with the CSV): no page data.
  'input',
  'output_fields',
  ...PROVENANCE_IDENTIFIERS.map(path => `extracted.*.provenance.${path}`),
  'artifacts.*.filename',
  'artifacts.*.sha256',
  'artifacts.*.kind',
  'artifacts.*.timestamp',
  'started_at',
  'finished_at',
  'usage',
  'task_hash',
  'recipe_hash',
  'failed_steps.*.action',
  'failed_steps.*.field',
  'resumed_from',
  'judgment_batch',
  'discovery.discovered_at',
];
export const ACTION_LOG_IDENTIFIERS: readonly string[] = [
  '*.timestamp',
  '*.decider',
  '*.model',
  '*.action.name',
  '*.action.args.field',
  '*.locator.role',
  '*.arg_locators.*.role',
  '*.target_seen.role',
  '*.document.source',
  '*.document.key',
];
export const CHECKPOINT_IDENTIFIERS: readonly string[] = ['sample_id', 'task_id', 'status', 'artifacts_so_far', 'updated_at'];
