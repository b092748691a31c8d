import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import * as path from 'node:path';
import type { Result } from '../evidence/result-schema';
import { describeUsage } from '../evidence/usage';
import { runDir } from '../settings';
import { sha256File } from '../evidence/hash';
import { collectJudged, collectSample, type CollectedSample, type JudgedUpdate } from './collect';
import { cellValue } from './csv';
import { indexRun, INDEX_FILE } from './evidence-index';
import { maskTestResult } from './mask-test-result';
import { env, secretsFromEnv } from '../env/read';
import { SecretMasker } from '../secrets/masker';
import { hashedReport, MANIFEST_FILE, writeRun } from './write-run';
import { writeJsonAtomic } from '../fs/atomic';
import { BWA_PROJECTS } from '../project/names';
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
  /** The batch judge's answers by sample, applied once every sample is known (the judge may judge one an earlier invocation ran). */
  private readonly judged = new Map<string, JudgedUpdate>();
  private readonly errors: string[] = [];
  /**
   * Tests of bwa's project that failed with no sample behind them (a task that could not load or could not run), by
   * test: a retry replaces the attempt before it.
   */
  private readonly unloaded = new Map<string, string>();
  private readonly masker = SecretMasker.of(secretsFromEnv());

  // Its lines are a summary beside the project's own reporters, not in place of them: when none of those prints
  // (html and junit only), Playwright still adds its default one, so the project's own failures are shown.
  printsToStdio(): boolean {
    return false;
  }

  onTestEnd(test: TestCase, testResult: TestResult): void {
    // Before any reporter after this one copies them (Allure at once, the HTML report at the end): sign-in setups included.
    maskTestResult(testResult, this.masker);
    this.applyJudged(test, testResult);
    const collected = collectSample(testResult);
    if (!collected) {
      if (test.parent.project()?.name === BWA_PROJECTS.tasks && testResult.status === 'failed')
        this.unloaded.set(test.id, `${test.titlePath().slice(3).join(' › ')}: ${(testResult.error?.message ?? 'failed').split('\n')[0]}`);
      return;
    }
    if ('error' in collected) {
      this.errors.push(`${test.titlePath().slice(1).join(' › ')}: ${collected.error}`);
      return;
    }
    const { result } = collected;
    this.unloaded.delete(test.id);
    // Retries overwrite earlier attempts: the last attempt is the sample's outcome.
    this.samples.set(`${result.task_id}/${result.sample_id}`, collected);
    console.log(sampleLine(result, collected.resumed, collected.resumeNote));
  }

  /** The batch judge ran after the samples: its answers replace the samples' own result and action log. */
  private applyJudged(test: TestCase, testResult: TestResult): void {
    for (const update of collectJudged(testResult)) {
      if ('error' in update) {
        this.errors.push(`${test.titlePath().slice(1).join(' › ')}: ${update.error}`);
        continue;
      }
      this.judged.set(update.key, update);
      const sample = this.samples.get(update.key);
      if (sample) console.log(sampleLine(update.result, sample.resumed, sample.resumeNote));
    }
  }

  onEnd(_result: FullResult): void {
    const unloaded = [...this.unloaded.values()].map(line => `  ✗ ${line}`);
    if (this.samples.size === 0 && this.errors.length === 0) {
      if (unloaded.length) console.log(`\nbwa: ${unloaded.length} test(s) ended before writing a result:\n${unloaded.join('\n')}`);
      return;
    }
    const runId = runIdOf([...this.samples.values()].map(s => s.result));
    if ('error' in runId) {
      for (const problem of this.errors) console.error(`  ! ${problem}`);
      console.error(`\nbwa: ${runId.error}`);
      // merge-reports sets its exit code from the merged tests alone; a reporter that throws makes it 1.
      throw new Error(runId.error);
    }
    const dir = runDir(runId.id);
    for (const earlier of earlierSamples(dir, new Set(this.samples.keys())))
      this.samples.set(`${earlier.result.task_id}/${earlier.result.sample_id}`, earlier);
    for (const [key, update] of this.judged) {
      const sample = this.samples.get(key);
      if (sample) this.samples.set(key, withJudgment(sample, update));
    }
    const results = [...this.samples.values()].map(s => s.result);
    const versions = mixedVersions(results);
    const manifest = writeRun(dir, runId.id, [...this.samples.values()], versions);
    const drift = detectDrift(results);
    // The index is written from the manifest and then hashed into it: the manifest covers every other file of the
    // run, and nothing in the run covers the manifest (its hash is printed below, to keep outside the run).
    const indexProblems = indexRun(dir, manifest, [...this.samples.values()]);
    const index = hashedReport(dir, INDEX_FILE);
    const manifestFile = path.join(dir, MANIFEST_FILE);
    writeJsonAtomic(manifestFile, {
      ...manifest,
      reports: [...manifest.reports, ...(index ? [index] : [])],
      ...(drift.length ? { drift } : {}),
    });
    const { counts } = manifest;
    console.log(
      `\nbwa run ${runId.id}: ${counts.total} sample${counts.total === 1 ? '' : 's'} — ${counts.done} done, ${counts.partial_success} partial, ${counts.needs_review} needs review, ${counts.failed} failed${counts.resumed ? ` (${counts.resumed} resumed)` : ''}`,
    );
    if (manifest.usage.model_calls > 0) console.log(`  model: ${describeUsage(manifest.usage)}`);
    console.log(`  evidence: ${path.relative(process.cwd(), dir) || dir}/ (combined.csv per task, manifest.json, ${INDEX_FILE})`);
    console.log(`  manifest.json sha256 ${sha256File(manifestFile)} (keep it: bwa verify --manifest-sha256 checks the manifest itself)`);
    for (const problem of [...this.errors, ...manifest.problems, ...indexProblems]) console.log(`  ! ${problem}`);
    if (unloaded.length) console.log(`  ${unloaded.length} test(s) ended before writing a result:\n${unloaded.join('\n')}`);
    for (const finding of drift) console.log(`  ⚠ drift: ${finding.message}`);
  }
}

/** A sample as the batch judge left it: its judged result and action log, both rewritten in this invocation. */
function withJudgment(sample: CollectedSample, update: JudgedUpdate): CollectedSample {
  const files = new Map(sample.files);
  if (update.actionLog) files.set(ACTION_LOG_FILE, update.actionLog);
  return { ...sample, result: update.result, resultSha256: update.resultSha256, files, judged: true };
}

/**
 * The run to lay out: AGENT_RUN_ID when set (playwright.config.ts sets it for every run; set by hand it names a
 * merged run), else the run id each result.json carries — so `merge-reports` needs no AGENT_RUN_ID.
 */
export function runIdOf(results: readonly Result[], fromEnv = env.AGENT_RUN_ID): { id: string } | { error: string } {
  if (fromEnv) return { id: fromEnv };
  const carried = [...new Set(results.map(r => r.run_id))];
  if (carried.length === 1) return { id: carried[0]! };
  if (carried.length === 0) return { error: 'no sample result could be read (the problems are listed above): there is no run to lay out' };
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
