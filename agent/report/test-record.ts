import type { TestInfo } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Result, SampleStatus } from '../evidence/result-schema';
import { ACTION_LOG_FILE, CHECKPOINT_FILE, RESULT_FILE, type SampleRecorder } from '../loop/recorder';
import { reportOutcomeToAllure } from './allure-metadata';
import { ATTACHMENT_NAMES, KEPT_CHANGED_ANNOTATION, quietName, RESUMED_ANNOTATION } from './collect';
import { oneLineError } from './one-line-error';
import { STATUS_ANNOTATION } from './status';
import { TRACE_FILE } from './traces';

/**
 * A sample's record as its test reports it: attached (the reporter rebuilds the run from attachments alone),
 * annotated with its status, and passing or failing by that status.
 */

const FILE_ATTACHMENTS: Record<string, string> = {
  [RESULT_FILE]: ATTACHMENT_NAMES.result,
  [ACTION_LOG_FILE]: ATTACHMENT_NAMES.actionLog,
  [CHECKPOINT_FILE]: ATTACHMENT_NAMES.checkpoint,
};

/**
 * Reports a finished sample. Quiet (a sample that failed before anything ran): its record goes under names
 * Playwright's terminal and HTML reports leave out, so the failure prints as its one line.
 */
export async function settleTest(
  testInfo: TestInfo,
  recorder: SampleRecorder,
  result: Result,
  failOn: readonly SampleStatus[],
  { quiet = false } = {},
): Promise<Result> {
  reportOutcomeToAllure(result, recorder.store.masker);
  await attachRecord(testInfo, recorder.store.dir, quiet);
  testInfo.annotations.push({ type: STATUS_ANNOTATION, description: result.status });
  if (result.status === 'failed') throw oneLineError(`${result.sample_id}: failed — ${result.error ?? 'no reason given'}`);
  if (result.status !== 'done') {
    testInfo.annotations.push({ type: result.status, description: result.error ?? '' });
    if (failOn.includes(result.status)) throw oneLineError(`${result.sample_id}: ${result.status} — ${result.error ?? ''}`);
  }
  return result;
}

export async function attachRecord(testInfo: TestInfo, dir: string, quiet = false): Promise<void> {
  for (const [file, name] of Object.entries(FILE_ATTACHMENTS)) {
    const full = path.join(dir, file);
    if (fs.existsSync(full)) await testInfo.attach(quiet ? quietName(name) : name, { path: full, contentType: 'application/json' });
  }
}

/**
 * A sample done in an earlier invocation passes again without running, and still reports its evidence (the
 * reporter rebuilds the run from attachments alone); its test says so, and says when it was kept despite a change.
 */
export async function attachResumed(testInfo: TestInfo, dir: string, result: Result, keptDespite?: string): Promise<void> {
  testInfo.annotations.push({ type: RESUMED_ANNOTATION, description: `done in an earlier invocation (finished ${result.finished_at})` });
  if (keptDespite) testInfo.annotations.push({ type: KEPT_CHANGED_ANNOTATION, description: keptDespite });
  testInfo.annotations.push({ type: STATUS_ANNOTATION, description: result.status });
  for (const artifact of result.artifacts) {
    const file = path.join(dir, artifact.filename);
    if (fs.existsSync(file))
      await testInfo.attach(`${ATTACHMENT_NAMES.artifactPrefix}${artifact.filename}`, { path: file, contentType: contentTypeOf(artifact.filename) });
  }
  // The traces of the invocation that ran it (under names Playwright's reports leave out: they are not this test's).
  for (const trace of fs.readdirSync(dir).filter(name => TRACE_FILE.test(name)))
    await testInfo.attach(quietName(`${ATTACHMENT_NAMES.tracePrefix}${trace}`), { path: path.join(dir, trace), contentType: 'application/zip' });
  await attachRecord(testInfo, dir);
}

export function contentTypeOf(filename: string): string {
  const ext = path.extname(filename).toLowerCase();
  return (
    {
      '.png': 'image/png',
      '.jpg': 'image/jpeg',
      '.json': 'application/json',
      '.csv': 'text/csv',
      '.pdf': 'application/pdf',
      '.txt': 'text/plain',
      '.html': 'text/html',
    }[ext] ?? 'application/octet-stream'
  );
}
