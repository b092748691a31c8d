import type { ActionLogEntry, Artifact, ExtractedField, FailedStep, Provenance, Result, SampleStatus, Usage } from '../evidence/result-schema';
import { ACTION_LOG_IDENTIFIERS, addUsage, CHECKPOINT_IDENTIFIERS, emptyUsage } from '../evidence/result-schema';
import { maskResult } from '../evidence/mask-result';
import type { EvidenceStore } from '../evidence/store';
import type { LoadedTask } from '../task/load-task';
import type { Sample } from '../task/samples';
import type { TaskSpec } from '../task/schema';
import { addRead, disagreementsForReview } from './field-reads';
import { deepMerge } from './merge';
import { isMissing } from './requirements';

const READ_SOURCES = new Set<Provenance['source']>(['dom', 'meta', 'json-ld', 'vision']);
export const isReadSource = (source: Provenance['source']): boolean => READ_SOURCES.has(source);

/** "css=.byline at step 4": where a read looked, for a note beside the value kept. */
function whereRead(provenance: Provenance): string {
  const where = provenance.locator ?? provenance.key ?? provenance.source;
  return provenance.step === undefined ? where : `${where} at step ${provenance.step}`;
}

export const RESULT_FILE = 'result.json';
export const ACTION_LOG_FILE = 'action_log.json';
export const CHECKPOINT_FILE = 'checkpoint.json';

export interface RecorderInit {
  task: LoadedTask;
  sample: Sample;
  runId: string;
  attempt: number;
  decider: string;
  store: EvidenceStore;
  /** Called after each file write, e.g. to attach it to the test. */
  onFileWritten?: (name: string, path: string) => void;
}

/**
 * Owns a sample's record: extracted fields, accumulated progress, the action log, and the three JSON files.
 * Everything written goes through the store (atomic, secrets masked); finish() is idempotent so the fixture's
 * teardown can always call it, whatever the loop did.
 */
function discoveryOf(sample: Sample): Result['discovery'] {
  const from = sample.row.discovered_from;
  if (!from) return null;
  const page = Number(sample.row.discovered_page);
  return {
    page_url: from,
    page_number: Number.isInteger(page) && sample.row.discovered_page !== '' ? page : null,
    discovered_at: sample.row.discovered_at ?? '',
  };
}

export class SampleRecorder {
  readonly log: ActionLogEntry[] = [];
  readonly fields: Record<string, ExtractedField> = {};
  /** Values read only to check something: outside the output schema, kept out of the result's data. */
  readonly checks: Record<string, ExtractedField> = {};
  accumulated: Record<string, unknown> = {};
  readonly progressNotes: string[] = [];
  readonly notes: string[] = [];
  usage: Usage = emptyUsage();
  judgment: Record<string, unknown> | null = null;
  steps = 0;
  /** The checkpoint this attempt started from, when an earlier attempt was interrupted. */
  resumedFrom: string | null = null;
  /** The judgment is left to the batch judge (AGENT_JUDGE=batch). */
  judgmentPending = false;
  readonly failedSteps: FailedStep[] = [];
  private finished: Result | undefined;
  readonly startedAt = new Date().toISOString();

  constructor(private readonly init: RecorderInit) {}

  get store(): EvidenceStore {
    return this.init.store;
  }

  get result(): Result | undefined {
    return this.finished;
  }

  /**
   * No value is ever dropped: a read value stands over what the model says; a value the model states where every read
   * found nothing is kept as stated (with its note and what was read); a read or a done that finds nothing never
   * erases a value already there.
   */
  setField(field: string, value: unknown, provenance: Provenance): void {
    const existing = this.fields[field];
    const said = provenance.source === 'model';
    if (existing && !isMissing(existing.value) && isMissing(value)) {
      if (!said)
        this.notes.push(
          `${field}: a later read found nothing (${whereRead(provenance)}); kept ${JSON.stringify(existing.value)} (${existing.provenance.source})`,
        );
      return;
    }
    if (existing && isReadSource(existing.provenance.source) && said) {
      if (!isMissing(existing.value)) {
        if (JSON.stringify(existing.value) !== JSON.stringify(value))
          this.notes.push(
            `${field}: kept the value read from the page (${JSON.stringify(existing.value)}); the model reported ${JSON.stringify(value)}`,
          );
        return;
      }
      this.notes.push(
        `${field}: the read found nothing (${whereRead(existing.provenance)}); kept the value the model stated, ${JSON.stringify(value)}`,
      );
      this.fields[field] = { value, provenance: { ...provenance, source: 'stated', unread: whereRead(existing.provenance) } };
      return;
    }
    if (existing && !isMissing(existing.value) && isReadSource(existing.provenance.source) && isReadSource(provenance.source)) {
      const rule = this.init.task.spec.when_reads_disagree[field] ?? this.init.task.spec.when_reads_disagree['*'] ?? 'review';
      this.fields[field] = addRead(existing, { value, provenance }, rule, field);
      return;
    }
    this.fields[field] = { value, provenance };
  }

  /** Fields read from places that disagree, left to a person by the task's rule. */
  disagreements(): string[] {
    return disagreementsForReview(this.fields);
  }

  /** A value read only to check something (a field outside the output schema): its log entry says `check`; never in the output. */
  setCheck(field: string, value: unknown, provenance: Provenance): void {
    this.checks[field] = { value, provenance };
  }

  /** A read value or check by name, for a derived value's sources. */
  recordedField(field: string): ExtractedField | undefined {
    return this.fields[field] ?? this.checks[field];
  }

  /** Saved progress merged with the fields read or reported since: a done that restates a list adds to it, never replaces it. */
  fieldValues(): Record<string, unknown> {
    return deepMerge(this.accumulated, Object.fromEntries(Object.entries(this.fields).map(([field, { value }]) => [field, value])));
  }

  saveProgress(data: Record<string, unknown>, note: string | undefined, step: number): void {
    this.accumulated = deepMerge(this.accumulated, data);
    if (note) this.progressNotes.push(note);
    this.checkpoint(step);
  }

  addUsage(usage: Usage | undefined): void {
    if (usage) addUsage(this.usage, usage);
  }

  record(entry: ActionLogEntry): void {
    const { name, args } = entry.action;
    if (name === 'extract' && entry.outcome.success && typeof args.field === 'string' && isCheck(this.init.task.spec, args.field)) entry.check = true;
    this.log.push(entry);
    this.steps = Math.max(this.steps, entry.step);
    this.checkpoint(this.steps);
  }

  /** Live checkpoint plus the action log flushed beside it (after every logged action), so a crash loses only the action in flight. */
  checkpoint(step: number, status: 'in_progress' | SampleStatus = 'in_progress', maxSteps = this.init.task.spec.max_steps): void {
    this.write(ACTION_LOG_FILE, this.log, ACTION_LOG_IDENTIFIERS);
    this.write(
      CHECKPOINT_FILE,
      {
        sample_id: this.init.sample.sample_id,
        task_id: this.init.task.spec.task_id,
        status,
        step,
        max_steps: maxSteps,
        accumulated_data: this.fieldsAndProgress(),
        progress_notes: this.progressNotes,
        artifacts_so_far: this.store.artifacts.map(a => ({ filename: a.filename, sha256: a.sha256 })),
        steps_logged: this.log.length,
        updated_at: new Date().toISOString(),
      },
      CHECKPOINT_IDENTIFIERS,
    );
  }

  finish(status: SampleStatus, error: string | null = null): Result {
    if (this.finished) return this.finished;
    const result = this.compose(status, error);
    // The status as masking left it: a value that held a secret sends a done sample to review.
    this.checkpoint(this.steps, result.status);
    this.finished = result;
    // Masked and validated by compose(): written exactly as checked.
    const path = this.store.writeMaskedJson(RESULT_FILE, this.finished);
    this.init.onFileWritten?.(RESULT_FILE, path);
    return this.finished;
  }

  /** The result finish() would write now, written nowhere (what the run memory learns from before the end). */
  preview(status: SampleStatus, error: string | null = null): Result {
    return this.compose(status, error);
  }

  private compose(status: SampleStatus, error: string | null): Result {
    const { task, sample, runId, attempt, decider } = this.init;
    const merged = this.fieldValues();
    for (const [key, value] of Object.entries(this.accumulated)) {
      const field = this.fields[key];
      this.fields[key] = field ? { ...field, value: merged[key] } : { value, provenance: { source: 'checkpoint', at: new Date().toISOString() } };
    }
    const result: Result = {
      schema_version: 1,
      run_id: runId,
      task_id: task.spec.task_id,
      sample_id: sample.sample_id,
      status,
      attempt,
      steps: this.steps,
      decider,
      input: sample.row,
      output_fields: Object.keys(task.spec.output_schema),
      extracted: this.fields,
      judgment: this.judgment,
      artifacts: this.store.artifacts as Artifact[],
      notes: [...new Set(this.notes)],
      error,
      started_at: this.startedAt,
      finished_at: new Date().toISOString(),
      usage: this.usage,
      task_hash: task.hash,
      recipe_hash: task.recipeHash,
      ...(this.failedSteps.length ? { failed_steps: this.failedSteps } : {}),
      discovery: discoveryOf(sample),
      resumed_from: this.resumedFrom,
      ...(this.judgmentPending && !this.judgment ? { judgment_pending: true } : {}),
    };
    // Validated after masking: what is checked is what is written.
    return maskResult(result, this.store.masker);
  }

  private fieldsAndProgress(): Record<string, unknown> {
    return this.fieldValues();
  }

  private write(name: string, value: unknown, identifiers: readonly string[]): void {
    const path = this.store.writeJson(name, value, identifiers);
    this.init.onFileWritten?.(name, path);
  }
}

/** A field the output schema does not name was read to check something: it stays in the action log, out of the output. */
export function isCheck(task: TaskSpec, field: string): boolean {
  return Object.keys(task.output_schema).length > 0 && !Object.hasOwn(task.output_schema, field);
}
