import { test as base, type BrowserContext, type Page, type TestInfo } from '@playwright/test';
import { ACTION_TIMEOUT_MS } from './actions/core/limits';
import type { DeciderFactories, DeciderMode } from './decide/select-decider';
import type { Result, SampleStatus } from './evidence/result-schema';
import { SecretMasker } from './secrets/masker';
import { secretsFromEnv } from './env/read';
import type { SampleRecorder } from './loop/recorder';
import { describeSampleForAllure, reportOutcomeToAllure } from './report/allure-metadata';
import { ATTACHMENT_NAMES } from './report/collect';
import { attachRecord, attachResumed, contentTypeOf, settleTest } from './report/test-record';
import { recordEarlyFailure } from './loop/early-failure';
import { recipeRecorder } from './recipe/record';
import { SampleSession } from './session';
import { modelRejections, sampleBlocker, startFailuresOf } from './setup/blockers';
import { previousResult, resumeOf } from './setup/resume';
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

/** For samples known to fail before they start (their task's server or sign-in is not ready, no decider can run it): no browser. */
export interface UnstartableSamples {
  fail(task: LoadedTask, sample: Sample, reason: string): Promise<Result>;
}

/** One per worker: a done sample the model decided (AGENT_RECORD=1) or repaired is compiled into the task's recipe. */
const recordRecipe = recipeRecorder(options => SampleSession.prepare(options));

/** The options every bwa fixture takes, each read when a test starts (a test or its beforeAll may set the variables first). */
export const withAgentOptions = base.extend<AgentOptions>({
  agentFailOn: [async ({}, use) => use(settings.failOn), { option: true }],
  agentActionTimeout: [ACTION_TIMEOUT_MS, { option: true }],
  agentDecider: [async ({}, use) => use(settings.decider), { option: true }],
  agentDeciders: [{}, { option: true }],
});

type AgentFixtureArgs = AgentOptions & { page: Page; context: BrowserContext };

/** The sample runs of one test, on its page and context, with its options. */
export function sampleRunsOf(args: AgentFixtureArgs, testInfo: TestInfo): SampleTestRuns {
  return new SampleTestRuns({
    page: args.page,
    context: args.context,
    testInfo,
    failOn: args.agentFailOn,
    actionTimeoutMs: args.agentActionTimeout,
    deciderMode: args.agentDecider,
    deciders: args.agentDeciders,
  });
}

export const test = withAgentOptions.extend<{ agent: AgentRunner; unstartable: UnstartableSamples }>({
  agent: async ({ page, context, agentFailOn, agentActionTimeout, agentDecider, agentDeciders }, use, testInfo) => {
    const runs = sampleRunsOf({ page, context, agentFailOn, agentActionTimeout, agentDecider, agentDeciders }, testInfo);
    await use({ run: (task, sample) => runs.run(task, sample, { resume: true }) });
    await runs.finishUnfinished();
  },
  unstartable: async ({ agentFailOn }, use, testInfo) => {
    await use({
      async fail(task, sample, reason) {
        const slot = openSlot(task, sample);
        const resume = await resumeOrNot(testInfo, slot);
        if (resume.kind === 'resume') return resume.result;
        const early = failBeforeStart(testInfo, slot, reason);
        return settleTest(testInfo, early.recorder, early.result, agentFailOn, { quiet: true });
      },
    });
  },
});

export interface SampleTestOptions {
  page: Page;
  context: BrowserContext;
  testInfo: TestInfo;
  failOn: readonly SampleStatus[];
  actionTimeoutMs: number;
  deciderMode: DeciderMode;
  deciders: DeciderFactories;
}

/**
 * Runs samples inside one Playwright test, on its page and context: the evidence goes to the run's folder, every
 * artifact is attached to the test under the step that made it, and the record is written even when the test body
 * throws or times out (finishUnfinished, from the fixture's teardown).
 */
export class SampleTestRuns {
  private recorder: SampleRecorder | undefined;

  constructor(private readonly options: SampleTestOptions) {}

  async run(task: LoadedTask, sample: Sample, { resume: resumable }: { resume: boolean }): Promise<Result> {
    const { testInfo, failOn } = this.options;
    const slot = openSlot(task, sample);
    const resume = resumable ? await resumeOrNot(testInfo, slot) : ({ kind: 'run' } as const);
    if (resume.kind === 'resume') return resume.result;
    testInfo.setTimeout(Math.max(testInfo.timeout, (task.spec.max_time_seconds + 90) * 1000));
    let session: SampleSession;
    try {
      const blocked = sampleBlocker(task.spec.task_id);
      if (blocked) throw new Error(blocked);
      session = await SampleSession.prepare({
        task,
        sample,
        context: this.options.context,
        page: this.options.page,
        runId: settings.runId,
        attempt: testInfo.retry,
        deciderMode: this.options.deciderMode,
        deciders: this.options.deciders,
        dir: slot.dir,
        actionTimeoutMs: this.options.actionTimeoutMs,
        runStep: (title, body) => test.step(title, body),
        onStartPage: (reached, error) => startFailuresOf(task.spec.task_id).record(reached, error),
        onModelAnswer: rejection => modelRejections().record(rejection),
        modelBlocker: () => modelRejections().blocked(),
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
      const early = failBeforeStart(testInfo, slot, error instanceof Error ? error.message : String(error));
      this.recorder = early.recorder;
      return settleTest(testInfo, early.recorder, early.result, failOn, { quiet: true });
    }
    this.recorder = session.recorder;
    if (resume.kind === 'rerun') this.recorder.notes.push(rerunNote(resume.changed));
    return settleTest(testInfo, this.recorder, await session.run(), failOn);
  }

  /** The body threw or timed out before the loop finished: the record is still written and attached. */
  async finishUnfinished(): Promise<void> {
    const { recorder } = this;
    if (!recorder || recorder.result) return;
    const { testInfo } = this.options;
    const reason =
      testInfo.status === 'timedOut'
        ? `test timed out after ${testInfo.timeout} ms`
        : (testInfo.error?.message ?? 'the test ended before the sample finished');
    const result = recorder.finish('failed', reason.split('\n')[0] ?? reason);
    reportOutcomeToAllure(result, recorder.store.masker);
    await attachRecord(testInfo, recorder.store.dir);
  }
}

interface Slot {
  task: LoadedTask;
  sample: Sample;
  dir: string;
  masker: SecretMasker;
}

function openSlot(task: LoadedTask, sample: Sample): Slot {
  const masker = SecretMasker.of(secretsFromEnv());
  describeSampleForAllure(task.spec, sample, masker);
  return { task, sample, dir: sampleDir(settings.runId, task.spec.task_id, sample.sample_id), masker };
}

/** Done in an earlier invocation of the run (and its task unchanged, or kept by choice): reported again, not run. */
async function resumeOrNot(testInfo: TestInfo, slot: Slot): Promise<ReturnType<typeof resumeOf>> {
  const resume = resumeOf(slot.task, slot.sample, previousResult(slot.dir), {
    keepChanged: settings.resumeChanged === 'keep',
    judgeBatch: settings.judge === 'batch',
  });
  if (resume.kind === 'resume') {
    await attachResumed(testInfo, slot.dir, resume.result, resume.keptDespite);
    reportOutcomeToAllure(resume.result, slot.masker);
  }
  if (resume.kind === 'rerun') testInfo.annotations.push({ type: 'rerun', description: rerunNote(resume.changed) });
  return resume;
}

function rerunNote(changed: string): string {
  return `run again: ${changed} changed since it was done in an earlier invocation of this run (AGENT_RESUME_CHANGED=keep keeps such samples)`;
}

/** A sample that failed before its loop could start (no key, no recipe, its site or sign-in not ready) is still in the evidence. */
function failBeforeStart(testInfo: TestInfo, slot: Slot, reason: string): { recorder: SampleRecorder; result: Result } {
  return recordEarlyFailure({ ...slot, runId: settings.runId, attempt: testInfo.retry }, reason);
}

export { expect } from '@playwright/test';
