import type { TestResult } from '@playwright/test/reporter';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyFileAtomic } from '../fs/atomic';
import { sha256File } from '../evidence/hash';

export interface PlacedTrace {
  /** Relative to the run folder, '/'-separated. */
  path: string;
  sha256: string;
  bytes: number;
}

/** Names of trace copies inside a sample folder: trace.zip, trace-2.zip, … */
export const TRACE_FILE = /^trace(-\d+)?\.zip$/;

/** The Playwright traces of one test attempt. The reporter only knows attachments: the runner attaches each trace as `trace`. */
export function traceAttachments(testResult: TestResult): string[] {
  return testResult.attachments.filter(a => a.name === 'trace' && a.path).map(a => a.path as string);
}

/**
 * Copies a sample's traces into its evidence folder, so the run folder stands alone: test-results/ is wiped by
 * the next run, and under merge-reports the shards' files exist only while the merge runs.
 */
export function placeTraces(runDir: string, taskId: string, sampleId: string, sources: readonly string[], problems: string[]): PlacedTrace[] {
  const placed: PlacedTrace[] = [];
  sources.forEach((source, index) => {
    const relative = `${taskId}/${sampleId}/${index === 0 ? 'trace.zip' : `trace-${index + 1}.zip`}`;
    const target = path.join(runDir, ...relative.split('/'));
    if (!fs.existsSync(source)) {
      problems.push(`${relative}: trace attachment ${source} is gone`);
      return;
    }
    if (path.resolve(source) !== path.resolve(target)) copyFileAtomic(source, target);
    placed.push({ path: relative, sha256: sha256File(target), bytes: fs.statSync(target).size });
  });
  return placed;
}
