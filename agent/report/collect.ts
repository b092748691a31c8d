import type { TestResult } from '@playwright/test/reporter';
import * as fs from 'node:fs';
import { Result } from '../evidence/result-schema';

export const ATTACHMENT_NAMES = { result: 'bwa-result', actionLog: 'bwa-action-log', checkpoint: 'bwa-checkpoint', artifactPrefix: 'bwa-artifact:' } as const;

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
