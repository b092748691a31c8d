import type { TestResult } from '@playwright/test/reporter';
import * as fs from 'node:fs';
import { Result } from '../evidence/result-schema';

export const ATTACHMENT_NAMES = { result: 'bwa-result', actionLog: 'bwa-action-log', checkpoint: 'bwa-checkpoint', artifactPrefix: 'bwa-artifact:', judgedPrefix: 'bwa-judged:' } as const;

export interface CollectedSample {
  result: Result;
  /** Original filename → where the attachment's bytes are now (a worker path, or a blob resource when merging). */
  files: Map<string, string>;
  resumed: boolean;
}

type Attachment = TestResult['attachments'][number];

function readAttachment(attachment: Attachment): Buffer | undefined {
  if (attachment.body) return attachment.body;
  if (attachment.path && fs.existsSync(attachment.path)) return fs.readFileSync(attachment.path);
  return undefined;
}

/** Rebuilds one sample from its test result's attachments only (merge-reports gives us nothing else). */
export function collectSample(testResult: TestResult): CollectedSample | { error: string } | undefined {
  const resultAttachment = testResult.attachments.findLast(a => a.name === ATTACHMENT_NAMES.result);
  if (!resultAttachment) return undefined;
  const body = readAttachment(resultAttachment);
  if (!body) return { error: `result attachment has no readable content (${resultAttachment.path ?? 'no path'})` };
  let parsed;
  try {
    parsed = Result.safeParse(JSON.parse(body.toString('utf8')));
  } catch (error) {
    return { error: `result attachment is not JSON: ${(error as Error).message}` };
  }
  if (!parsed.success) return { error: `result attachment does not match the Result schema: ${parsed.error.issues[0]?.message}` };
  const files = new Map<string, string>();
  for (const attachment of testResult.attachments) {
    if (!attachment.path) continue;
    if (attachment.name.startsWith(ATTACHMENT_NAMES.artifactPrefix)) files.set(attachment.name.slice(ATTACHMENT_NAMES.artifactPrefix.length), attachment.path);
    if (attachment.name === ATTACHMENT_NAMES.actionLog) files.set('action_log.json', attachment.path);
    if (attachment.name === ATTACHMENT_NAMES.checkpoint) files.set('checkpoint.json', attachment.path);
  }
  const resumed = testResult.annotations?.some(a => a.type === 'resumed') ?? false;
  return { result: parsed.data, files, resumed };
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
  const updates: Array<JudgedUpdate | { error: string }> = [];
  const logs = new Map<string, string>();
  for (const attachment of testResult.attachments) {
    if (!attachment.name.startsWith(ATTACHMENT_NAMES.judgedPrefix) || !attachment.path) continue;
    const name = attachment.name.slice(ATTACHMENT_NAMES.judgedPrefix.length);
    if (name.endsWith('/action_log.json')) logs.set(name.slice(0, -'/action_log.json'.length), attachment.path);
  }
  for (const attachment of testResult.attachments) {
    if (!attachment.name.startsWith(ATTACHMENT_NAMES.judgedPrefix) || !attachment.name.endsWith('/result.json')) continue;
    const key = attachment.name.slice(ATTACHMENT_NAMES.judgedPrefix.length, -'/result.json'.length);
    const body = readAttachment(attachment);
    const parsed = body ? Result.safeParse(safeJson(body)) : undefined;
    if (!parsed?.success) {
      updates.push({ error: `${attachment.name}: not a readable result` });
      continue;
    }
    updates.push({ key, result: parsed.data, actionLog: logs.get(key) });
  }
  return updates;
}

function safeJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}
