import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import * as path from 'node:path';
import type { Result } from '../evidence/result-schema';
import { describeUsage } from '../evidence/usage';
import { runDir } from '../settings';
import { collectJudged, collectSample, type CollectedSample } from './collect';
import { cellValue } from './csv';
import { indexRun, INDEX_FILE } from './evidence-index';
import { maskTestResult } from './mask-test-result';
import { traceAttachments } from './traces';
import { env, secretsFromEnv } from '../env/read';
import { SecretMasker } from '../secrets/masker';
import { hashedReport, MANIFEST_FILE, writeRun } from './write-run';
import { writeJsonAtomic } from '../fs/atomic';
import { detectDrift } from '../recipe/drift';
import { ACTION_LOG_FILE } from '../loop/recorder';
import { earlierSamples } from './earlier-samples';
import { mixedVersions } from './task-versions';

const STATUS_MARK: Record<Result['status'], string> = { done: '✓', partial_success: '◐', needs_review: '?', failed: '✗' };
const KEY_FIELDS_SHOWN = 4;

/**
 * Turns finished agent tests into the run's evidence tree. It reads TestResult attachments only, so it gives the
 * same output in a normal run and under `npx playwright merge-reports` over shards' blob reports.
 */
export default class BwaReporter implements Reporter {
  private readonly samples = new Map<string, CollectedSample>();
  private readonly traces = new Map<string, string[]>();
  private readonly errors: string[] = [];
  private readonly masker = SecretMasker.of(secretsFromEnv());

  printsToStdio(): boolean {
    return true;
  }

  onTestEnd(test: TestCase, testResult: TestResult): void {
    // Before any reporter after this one copies them (Allure at once, the HTML report at the end): sign-in setups included.
    maskTestResult(testResult, this.masker);
    this.applyJudged(test, testResult);
    const collected = collectSample(testResult);
    if (!collected) return;
    if ('error' in collected) {
      this.errors.push(`${test.titlePath().slice(1).join(' › ')}: ${collected.error}`);
      return;
    }
    const { result } = collected;
    // Retries overwrite earlier attempts: the last attempt is the sample's outcome.
    this.samples.set(`${result.task_id}/${result.sample_id}`, collected);
    this.traces.set(`${result.task_id}/${result.sample_id}`, traceAttachments(testResult));
    console.log(sampleLine(result, collected.resumed, collected.resumeNote));
  }

  /** The batch judge ran after the samples: its answers replace the samples' own result and action log. */
  private applyJudged(test: TestCase, testResult: TestResult): void {
    for (const update of collectJudged(testResult)) {
      if ('error' in update) {
        this.errors.push(`${test.titlePath().slice(1).join(' › ')}: ${update.error}`);
        continue;
      }
      const sample = this.samples.get(update.key);
      if (!sample) continue;
      const files = new Map(sample.files);
      if (update.actionLog) files.set(ACTION_LOG_FILE, update.actionLog);
      this.samples.set(update.key, { ...sample, result: update.result, files });
      console.log(sampleLine(update.result, sample.resumed, sample.resumeNote));
    }
  }

  onEnd(_result: FullResult): void {
    if (this.samples.size === 0 && this.errors.length === 0) return;
    const runId = runIdOf([...this.samples.values()].map(s => s.result));
    if ('error' in runId) {
      console.error(`\nbwa: ${runId.error}`);
      // merge-reports sets its exit code from the merged tests alone; a reporter that throws makes it 1.
      throw new Error(runId.error);
    }
    const dir = runDir(runId.id);
    for (const earlier of earlierSamples(dir, new Set(this.samples.keys())))
      this.samples.set(`${earlier.result.task_id}/${earlier.result.sample_id}`, earlier);
    const results = [...this.samples.values()].map(s => s.result);
    const versions = mixedVersions(results);
    const manifest = writeRun(dir, runId.id, [...this.samples.values()], versions);
    const drift = detectDrift(results);
    const indexProblems = indexRun(
      dir,
      manifest,
      [...this.samples].map(([key, s]) => ({ ...s, traceSources: this.traces.get(key) ?? [] })),
    );
    const index = hashedReport(dir, INDEX_FILE);
    writeJsonAtomic(path.join(dir, MANIFEST_FILE), {
      ...manifest,
      reports: [...manifest.reports, ...(index ? [index] : [])],
      ...(drift.length ? { drift } : {}),
    });
    const { counts } = manifest;
    console.log(
      `\nbwa run ${runId.id}: ${counts.total} samples — ${counts.done} done, ${counts.partial_success} partial, ${counts.needs_review} needs review, ${counts.failed} failed${counts.resumed ? ` (${counts.resumed} resumed)` : ''}`,
    );
    if (manifest.usage.model_calls > 0) console.log(`  model: ${describeUsage(manifest.usage)}`);
    console.log(`  evidence: ${path.relative(process.cwd(), dir) || dir}/ (combined.csv per task, manifest.json, ${INDEX_FILE})`);
    for (const problem of [...this.errors, ...manifest.problems, ...indexProblems]) console.log(`  ! ${problem}`);
    for (const finding of drift) console.log(`  ⚠ drift: ${finding.message}`);
  }
}

/**
 * The run to lay out: AGENT_RUN_ID when set (playwright.config.ts sets it for every run; set by hand it names a
 * merged run), else the run id each result.json carries — so `merge-reports` needs no AGENT_RUN_ID.
 */
export function runIdOf(results: readonly Result[], fromEnv = env.AGENT_RUN_ID): { id: string } | { error: string } {
  if (fromEnv) return { id: fromEnv };
  const carried = [...new Set(results.map(r => r.run_id))];
  if (carried.length === 1) return { id: carried[0]! };
  return {
    error: `the blob reports hold samples of ${carried.length} runs (${carried.join(', ')}): set AGENT_RUN_ID=<id> to name the merged run, or merge one run's blob reports at a time`,
  };
}

export function sampleLine(result: Result, resumed: boolean, resumeNote?: string): string {
  const fields = result.output_fields
    .filter(f => result.extracted[f] !== undefined)
    .slice(0, KEY_FIELDS_SHOWN)
    .map(f => `${f}=${truncate(cellValue(result.extracted[f]?.value))}`);
  const how = resumed ? ` (resumed${resumeNote ? `, ${resumeNote}` : ''})` : '';
  const parts = [STATUS_MARK[result.status], `${result.task_id}/${result.sample_id}`, result.status + how, ...fields];
  if (result.status !== 'done' && result.error) parts.push(`— ${truncate(result.error, 100)}`);
  return `  ${parts.join(' ')}`;
}

function truncate(text: string, max = 40): string {
  const single = text.replace(/\s+/g, ' ');
  return single.length > max ? `${single.slice(0, max - 1)}…` : single;
}
