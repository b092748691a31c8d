import type { TestResult } from '@playwright/test/reporter';

/**
 * Names of trace copies inside a sample folder: trace.zip, trace-2.zip, … The reporter copies them there (as it
 * copies every attachment), so the run folder stands alone: test-results/ is wiped by the next run, and under
 * merge-reports the shards' files exist only while the merge runs.
 */
export const TRACE_FILE = /^trace(-\d+)?\.zip$/;

export function traceFileName(index: number): string {
  return index === 0 ? 'trace.zip' : `trace-${index + 1}.zip`;
}

/** The Playwright traces of one test attempt. The reporter only knows attachments: the runner attaches each trace as `trace`. */
export function traceAttachments(testResult: TestResult): string[] {
  return testResult.attachments.filter(a => a.name === 'trace' && a.path).map(a => a.path as string);
}
