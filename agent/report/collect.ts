import type { TestResult } from '@playwright/test/reporter';
import * as fs from 'node:fs';
import { Result } from '../evidence/result-schema';
import { ACTION_LOG_FILE, CHECKPOINT_FILE, RESULT_FILE } from '../loop/recorder';

export const ATTACHMENT_NAMES = {
  result: 'bwa-result',
  actionLog: 'bwa-action-log',
  checkpoint: 'bwa-checkpoint',
  artifactPrefix: 'bwa-artifact:',
  judgedPrefix: 'bwa-judged:',
} as const;

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
}

type Attachment = TestResult['attachments'][number];

function readAttachment(attachment: Attachment): Buffer | undefined {
  if (attachment.body) return attachment.body;
  if (attachment.path && fs.existsSync(attachment.path)) return fs.readFileSync(attachment.path);
  return undefined;
}

/** A result.json attachment, read and checked against the Result schema; the error says which step failed. */
function readResult(attachment: Attachment): { result: Result } | { error: string } {
  const body = readAttachment(attachment);
  if (!body) return { error: `result attachment has no readable content (${attachment.path ?? 'no path'})` };
  let parsed;
  try {
    parsed = Result.safeParse(JSON.parse(body.toString('utf8')));
  } catch (error) {
    return { error: `result attachment is not JSON: ${(error as Error).message}` };
  }
  if (!parsed.success) return { error: `result attachment does not match the Result schema: ${parsed.error.issues[0]?.message}` };
  return { result: parsed.data };
}

/** Rebuilds one sample from its test result's attachments only (merge-reports gives us nothing else). */
export function collectSample(testResult: TestResult): CollectedSample | { error: string } | undefined {
  const resultAttachment = testResult.attachments.findLast(a => carries(a, ATTACHMENT_NAMES.result));
  if (!resultAttachment) return undefined;
  const read = readResult(resultAttachment);
  if ('error' in read) return read;
  const { result } = read;
  const files = new Map<string, string>();
  for (const attachment of testResult.attachments) {
    if (!attachment.path) continue;
    if (attachment.name.startsWith(ATTACHMENT_NAMES.artifactPrefix))
      files.set(attachment.name.slice(ATTACHMENT_NAMES.artifactPrefix.length), attachment.path);
    if (carries(attachment, ATTACHMENT_NAMES.actionLog)) files.set(ACTION_LOG_FILE, attachment.path);
    if (carries(attachment, ATTACHMENT_NAMES.checkpoint)) files.set(CHECKPOINT_FILE, attachment.path);
  }
  const resumed = testResult.annotations?.some(a => a.type === RESUMED_ANNOTATION) ?? false;
  const keptDespite = testResult.annotations?.find(a => a.type === KEPT_CHANGED_ANNOTATION)?.description;
  return { result, files, resumed, ...(keptDespite ? { resumeNote: `kept although ${keptDespite} changed since` } : {}) };
}

export interface JudgedUpdate {
  key: string;
  result: Result;
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
    return 'error' in read ? [{ error: `${result.name}: ${read.error}` }] : [{ key, result: read.result, actionLog }];
  });
}
