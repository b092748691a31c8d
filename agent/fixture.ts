import { test as base, type TestInfo } from '@playwright/test';
import 'dotenv/config';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DeciderFactories, DeciderMode } from './decide/select-decider';
import { readJsonIfExists } from './fs/atomic';
import { Result, type SampleStatus } from './evidence/result-schema';
import { redactorFor } from './browser/secrets';
import { secretsFromEnv } from './env/read';
import { ACTION_LOG_FILE, CHECKPOINT_FILE, RESULT_FILE, type SampleRecorder } from './loop/recorder';
import { describeSampleForAllure, reportOutcomeToAllure } from './report/allure-metadata';
import { ATTACHMENT_NAMES } from './report/collect';
import { STATUS_ANNOTATION } from './report/status';
import { recordEarlyFailure } from './loop/early-failure';
import { recipeRecorder } from './recipe/record';
import { SampleSession } from './session';
import { sampleBlocker, startFailuresOf } from './setup/blockers';
import { sampleDir, settings } from './settings';
import type { LoadedTask } from './task/load-task';
import type { Sample } from './task/samples';

export interface AgentOptions {
  /** Statuses that fail the test besides "failed" (default: AGENT_FAIL_ON, else none — they pass, labelled). */
  agentFailOn: SampleStatus[];
  /** Per-action timeout (ms). */
  agentActionTimeout: number;
  /** auto | model | recipe (default from AGENT_DECIDER, else auto). */
  agentDecider: DeciderMode;
  /** Extra decider factories (the model decider plugs in here). */
  agentDeciders: DeciderFactories;
}

export interface AgentRunner {
  run(task: LoadedTask, sample: Sample): Promise<Result>;
}

/** One per worker: a done sample the model decided (AGENT_RECORD=1) or repaired is compiled into the task's recipe. */
const recordRecipe = recipeRecorder(options => SampleSession.prepare(options));

const FILE_ATTACHMENTS: Record<string, string> = {
  [RESULT_FILE]: ATTACHMENT_NAMES.result,
  [ACTION_LOG_FILE]: ATTACHMENT_NAMES.actionLog,
  [CHECKPOINT_FILE]: ATTACHMENT_NAMES.checkpoint,
};

export const test = base.extend<AgentOptions & { agent: AgentRunner }>({
  agentFailOn: [settings.failOn, { option: true }],
  agentActionTimeout: [60_000, { option: true }],
  agentDecider: [settings.decider, { option: true }],
  agentDeciders: [{}, { option: true }],
  agent: async ({ page, context, agentFailOn, agentActionTimeout, agentDecider, agentDeciders }, use, testInfo) => {
    let recorder: SampleRecorder | undefined;
    const runner: AgentRunner = {
      async run(task, sample) {
        const dir = sampleDir(settings.runId, task.spec.task_id, sample.sample_id);
        const redactor = redactorFor(secretsFromEnv());
        describeSampleForAllure(task.spec, sample, redactor);
        const previous = Result.safeParse(readJsonIfExists(path.join(dir, RESULT_FILE)));
        // A sample whose facts are collected and whose judgment waits for the batch judge is not run again either.
        const waitsForJudge = previous.success && previous.data.judgment_pending === true && settings.judge === 'batch';
        if (previous.success && (previous.data.status === 'done' || waitsForJudge)) {
          await attachResumed(testInfo, dir, previous.data);
          reportOutcomeToAllure(previous.data, redactor);
          test.skip(
            true,
            `resumed: ${sample.sample_id} is already ${waitsForJudge ? 'collected (its judgment is left to the batch judge)' : 'done'} in run ${settings.runId}`,
          );
        }
        testInfo.setTimeout(Math.max(testInfo.timeout, (task.spec.max_time_seconds + 90) * 1000));
        let session: SampleSession;
        try {
          const blocked = sampleBlocker(task.spec.task_id);
          if (blocked) throw new Error(blocked);
          session = await SampleSession.prepare({
            task,
            sample,
            context,
            page,
            runId: settings.runId,
            attempt: testInfo.retry,
            deciderMode: agentDecider,
            deciders: agentDeciders,
            dir,
            actionTimeoutMs: agentActionTimeout,
            runStep: (title, body) => test.step(title, body),
            onStartPage: (reached, error) => startFailuresOf(task.spec.task_id).record(reached, error),
            afterLoop: recordRecipe,
            // Called inside the agent step that made the artifact, so every report shows it under that step.
            // (testInfo.attach, not the step's own attach: allure-playwright only files attachments made this way.)
            onArtifact: (artifact, file) =>
              testInfo.attach(`${ATTACHMENT_NAMES.artifactPrefix}${artifact.filename}`, {
                path: file,
                contentType: contentTypeOf(artifact.filename),
              }),
          });
        } catch (error) {
          const early = recordEarlyFailure(
            { task, sample, runId: settings.runId, attempt: testInfo.retry, dir, redactor },
            error instanceof Error ? error.message : String(error),
          );
          recorder = early.recorder;
          return settle(early.result);
        }
        recorder = session.recorder;
        return settle(await session.run());
      },
    };
    async function settle(result: Result): Promise<Result> {
      reportOutcomeToAllure(result, recorder!.store.redactor);
      await attachRecord(testInfo, recorder!.store.dir);
      testInfo.annotations.push({ type: STATUS_ANNOTATION, description: result.status });
      if (result.status === 'failed') throw new Error(`${result.sample_id}: failed — ${result.error ?? 'no reason given'}`);
      if (result.status !== 'done') {
        testInfo.annotations.push({ type: result.status, description: result.error ?? '' });
        if (agentFailOn.includes(result.status)) throw new Error(`${result.sample_id}: ${result.status} — ${result.error ?? ''}`);
      }
      return result;
    }
    await use(runner);
    if (recorder && !recorder.result) {
      // The body threw or timed out before the loop finished: the record is still written and attached.
      const reason =
        testInfo.status === 'timedOut'
          ? `test timed out after ${testInfo.timeout} ms`
          : (testInfo.error?.message ?? 'the test ended before the sample finished');
      const result = recorder.finish('failed', reason.split('\n')[0] ?? reason);
      reportOutcomeToAllure(result, recorder.store.redactor);
      await attachRecord(testInfo, recorder.store.dir);
    }
  },
});

async function attachRecord(testInfo: TestInfo, dir: string): Promise<void> {
  for (const [file, name] of Object.entries(FILE_ATTACHMENTS)) {
    const full = path.join(dir, file);
    if (fs.existsSync(full)) await testInfo.attach(name, { path: full, contentType: 'application/json' });
  }
}

/** A resumed sample still reports its evidence, so the reporter rebuilds the run from attachments alone. */
async function attachResumed(testInfo: TestInfo, dir: string, result: Result): Promise<void> {
  testInfo.annotations.push({ type: 'resumed', description: `done in an earlier invocation (finished ${result.finished_at})` });
  for (const artifact of result.artifacts) {
    const file = path.join(dir, artifact.filename);
    if (fs.existsSync(file))
      await testInfo.attach(`${ATTACHMENT_NAMES.artifactPrefix}${artifact.filename}`, { path: file, contentType: contentTypeOf(artifact.filename) });
  }
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

export { expect } from '@playwright/test';
