import type { TestResult } from '@playwright/test/reporter';
import * as fs from 'node:fs';
import { RUN_ID_PATTERN } from '../env/variables';
import { sha256 } from '../evidence/hash';
import { Result } from '../evidence/result-schema';
import { unsafeSegment } from '../fs/confined';
import { ACTION_LOG_FILE, CHECKPOINT_FILE, RESULT_FILE } from '../loop/recorder';
import { checkSampleId } from '../task/samples';
import { TaskId } from '../task/schema';
import { TRACE_FILE, traceFileName } from './traces';

export const ATTACHMENT_NAMES = {
  result: 'bwa-result',
  actionLog: 'bwa-action-log',
  checkpoint: 'bwa-checkpoint',
  artifactPrefix: 'bwa-artifact:',
  /** A resumed sample's traces from the invocation that ran it (the resumed test's own trace shows nothing of it). */
  tracePrefix: 'bwa-trace:',
  judgedPrefix: 'bwa-judged:',
} as const;

const RECORD_FILES = new Set([RESULT_FILE, ACTION_LOG_FILE, CHECKPOINT_FILE]);

/** An attachment name Playwright's own reports leave out of their listings (they skip names starting with "_"). */
export const quietName = (name: string) => `_${name}`;

/** Whether an attachment carries this record, under its name or its quiet one. */
const carries = (attachment: { name: string }, name: string) => attachment.name === name || attachment.name === quietName(name);

/** A sample done in an earlier invocation of the run, reported again without running. */
export const RESUMED_ANNOTATION = 'resumed';
/** …and done under an earlier version of its task, kept by AGENT_RESUME_CHANGED=keep: what changed since. */
export const KEPT_CHANGED_ANNOTATION = 'bwa-kept-changed';

export interface CollectedSample {
  result: Result;
  /** Original filename → where the attachment's bytes are now (a worker path, or a blob resource when merging). */
  files: Map<string, string>;
  resumed: boolean;
  /** What else a reviewer should know about a resumed sample ("kept although the task spec changed since"). */
  resumeNote?: string;
  /** The SHA-256 of result.json as attached, before bwa writes it again. */
  resultSha256?: string;
  /** The batch judge rewrote its result.json and action_log.json in this invocation. */
  judged?: boolean;
  /** Attachments left out of the run folder, and why. */
  problems?: string[];
}

type Attachment = TestResult['attachments'][number];

function readAttachment(attachment: Attachment): Buffer | undefined {
  if (attachment.body) return attachment.body;
  if (attachment.path && fs.existsSync(attachment.path)) return fs.readFileSync(attachment.path);
  return undefined;
}

/** A result.json attachment, read and checked against the Result schema; the error says which step failed. */
function readResult(attachment: Attachment): { result: Result; sha256: string } | { error: string } {
  const body = readAttachment(attachment);
  if (!body) return { error: `result attachment has no readable content (${attachment.path ?? 'no path'})` };
  let parsed;
  try {
    parsed = Result.safeParse(JSON.parse(body.toString('utf8')));
  } catch (error) {
    return { error: `result attachment is not JSON: ${(error as Error).message}` };
  }
  if (!parsed.success) return { error: `result attachment does not match the Result schema: ${parsed.error.issues[0]?.message}` };
  const unsafe = unsafePathIn(parsed.data);
  if (unsafe) return { error: `result attachment: ${unsafe} — its sample is left out of the run folder` };
  return { result: parsed.data, sha256: sha256(body) };
}

/**
 * The result fields bwa makes paths of (run, task and sample ids, artifact file names), checked before any is used:
 * a result from another machine's blob report is untrusted input.
 */
function unsafePathIn(result: Result): string | undefined {
  if (!RUN_ID_PATTERN.test(result.run_id)) return `run_id ${JSON.stringify(result.run_id)} is not a safe folder name`;
  if (!TaskId.safeParse(result.task_id).success) return `task_id ${JSON.stringify(result.task_id)} is not a task id`;
  const sampleProblem = checkSampleId(result.sample_id);
  if (sampleProblem) return `sample_id ${sampleProblem}`;
  for (const [i, artifact] of result.artifacts.entries()) {
    const problem =
      unsafeSegment(artifact.filename) ??
      (RECORD_FILES.has(artifact.filename) || TRACE_FILE.test(artifact.filename) ? `"${artifact.filename}" is a record's name` : undefined);
    if (problem) return `artifacts[${i}].filename ${problem} (an artifact is one file of the sample folder)`;
  }
  return undefined;
}

/** Rebuilds one sample from its test result's attachments only (merge-reports gives us nothing else). */
export function collectSample(testResult: TestResult): CollectedSample | { error: string } | undefined {
  const resultAttachment = testResult.attachments.findLast(a => carries(a, ATTACHMENT_NAMES.result));
  if (!resultAttachment) return undefined;
  const read = readResult(resultAttachment);
  if ('error' in read) return read;
  const { result } = read;
  const resumed = testResult.annotations?.some(a => a.type === RESUMED_ANNOTATION) ?? false;
  const listed = new Set(result.artifacts.map(a => a.filename));
  const files = new Map<string, string>();
  const problems: string[] = [];
  let traces = 0;
  for (const attachment of testResult.attachments) {
    if (!attachment.path) continue;
    if (attachment.name.startsWith(ATTACHMENT_NAMES.artifactPrefix)) {
      const name = attachment.name.slice(ATTACHMENT_NAMES.artifactPrefix.length);
      if (listed.has(name)) files.set(name, attachment.path);
      else
        problems.push(
          `${result.task_id}/${result.sample_id}: attachment ${JSON.stringify(attachment.name)} names no artifact of its result.json — not copied`,
        );
    }
    if (carries(attachment, ATTACHMENT_NAMES.actionLog)) files.set(ACTION_LOG_FILE, attachment.path);
    if (carries(attachment, ATTACHMENT_NAMES.checkpoint)) files.set(CHECKPOINT_FILE, attachment.path);
    // A resumed test traces only its own pass; the sample's traces are the ones it attached from its folder.
    if (attachment.name === 'trace' && !resumed) files.set(traceFileName(traces++), attachment.path);
    const earlierTrace = tracedName(attachment.name);
    if (earlierTrace && resumed) files.set(earlierTrace, attachment.path);
  }
  const keptDespite = testResult.annotations?.find(a => a.type === KEPT_CHANGED_ANNOTATION)?.description;
  return {
    result,
    files,
    resumed,
    resultSha256: read.sha256,
    ...(problems.length ? { problems } : {}),
    ...(keptDespite ? { resumeNote: `kept although ${keptDespite} changed since` } : {}),
  };
}

/** The trace file a `bwa-trace:<name>` attachment carries, when it names one. */
function tracedName(attachmentName: string): string | undefined {
  const prefix = [ATTACHMENT_NAMES.tracePrefix, quietName(ATTACHMENT_NAMES.tracePrefix)].find(p => attachmentName.startsWith(p));
  const name = prefix ? attachmentName.slice(prefix.length) : undefined;
  return name && TRACE_FILE.test(name) ? name : undefined;
}

export interface JudgedUpdate {
  key: string;
  result: Result;
  resultSha256: string;
  /** The action log with the judge's step appended. */
  actionLog?: string;
}

/**
 * The batch judge's test carries, per sample it judged, `bwa-judged:<task>/<sample>/result.json` and
 * `…/action_log.json`: they replace what the sample's own test attached.
 */
export function collectJudged(testResult: TestResult): Array<JudgedUpdate | { error: string }> {
  const byKey = new Map<string, { result?: Attachment; actionLog?: string }>();
  for (const attachment of testResult.attachments) {
    if (!attachment.name.startsWith(ATTACHMENT_NAMES.judgedPrefix)) continue;
    const name = attachment.name.slice(ATTACHMENT_NAMES.judgedPrefix.length);
    const key = name.slice(0, name.lastIndexOf('/'));
    const file = name.slice(key.length + 1);
    const entry = byKey.get(key) ?? {};
    if (file === RESULT_FILE) entry.result = attachment;
    else if (file === ACTION_LOG_FILE && attachment.path) entry.actionLog = attachment.path;
    byKey.set(key, entry);
  }
  return [...byKey].flatMap(([key, { result, actionLog }]): Array<JudgedUpdate | { error: string }> => {
    if (!result) return [];
    const read = readResult(result);
    if ('error' in read) return [{ error: `${result.name}: ${read.error}` }];
    const judgedKey = `${read.result.task_id}/${read.result.sample_id}`;
    if (judgedKey !== key) return [{ error: `${result.name}: holds the result of ${judgedKey}, not of ${key}` }];
    return [{ key, result: read.result, resultSha256: read.sha256, actionLog }];
  });
}
