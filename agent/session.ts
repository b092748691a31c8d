import type { BrowserContext, Page } from '@playwright/test';
import * as path from 'node:path';
import { installClickListenerMarks } from './snapshot/click-listeners';
import { installClosedShadowRootMarks } from './snapshot/closed-shadow-roots';
import { installEvaluateShim } from './browser/evaluate-shim';
import { hasInputFiles } from './actions/fields/input-files';
import { installGuards, type GuardOptions } from './browser/guards';
import { ContextTabs } from './browser/context-tabs';
import { createPolicy } from './browser/policy';
import { env, placeholderValuesFromEnv, secretsFromEnv } from './env/read';
import { SecretMasker } from './secrets/masker';
import type { SecretScopes } from './secrets/scope';
import { taskSecretScopes } from './task/secret-scope';
import { loadAuthProfile } from './task/auth-profile';
import { fillStartUrl } from './task/row-template';
import type { TaskSpec } from './task/schema';
import type { Sample } from './task/samples';
import { ModelClient } from './decide/model-client';
import { ModelDecider } from './decide/model-decider';
import { modelSettings } from './decide/model-settings';
import { selectDecider, type DeciderFactories, type DeciderMode } from './decide/select-decider';
import { SelfHealingDecider } from './decide/self-heal';
import type { FinishedSample } from './recipe/record';
import { compiledRecipe } from './recipe/recipe-store';
import type { Decider } from './decide/types';
import { VisionGate } from './loop/vision-gate';
import { archivePreviousAttempt } from './evidence/attempts';
import type { Result } from './evidence/result-schema';
import { EvidenceStore, type ArtifactListener } from './evidence/store';
import { SampleRecorder, type RecorderInit } from './loop/recorder';
import { runSample } from './loop/run-sample';
import { withFailedSteps } from './loop/failed-steps';
import { withDisagreements } from './loop/disagreements';
import type { RunSampleInput, SampleOutcome, SampleSlot, StepRunner } from './loop/types';
import { pageViewer } from './loop/view';
import { runDir, sampleDir, settings } from './settings';
import { readJsonIfExists } from './fs/atomic';
import { ACTION_LOG_IDENTIFIERS, Checkpoint } from './evidence/result-schema';
import { CHECKPOINT_FILE } from './loop/recorder';
import { learnFromSample } from './memory/learn';
import { RunMemory } from './memory/run-memory';

export interface SessionOptions extends SampleSlot {
  deciderMode: DeciderMode;
  deciders?: DeciderFactories;
  runStep?: StepRunner;
  actionTimeoutMs?: number;
  onArtifact?: ArtifactListener;
  /** Told whether the start page could be reached (a dead site stops its task early). */
  onStartPage?: RunSampleInput['onStartPage'];
  /** Told how the API answered the sample's first model request (a rejected configuration stops the run's other samples). */
  onModelAnswer?: RunSampleInput['onModelAnswer'];
  /** Why no model-decided sample may start now (the API rejected the configuration earlier in the run), if so. */
  modelBlocker?: () => string | undefined;
  /** Told after each write of the sample's record files (checkpoint, action log, result), as they are on disk. */
  onFileWritten?: RecorderInit['onFileWritten'];
  /**
   * Runs once the loop has ended, before the result is written; a note it returns goes into the sample's record.
   * The fixture records recipes here (recipe/record.ts recipeRecorder): the session itself never compiles one.
   */
  afterLoop?: (finished: FinishedSample) => Promise<string | undefined>;
}

/**
 * Everything one sample needs, wired once: evidence folder (earlier attempts moved aside), decider, page view,
 * guards, policy, recorder. The Playwright fixture and the benchmarks both run samples through this.
 */
export class SampleSession {
  private constructor(
    readonly options: SessionOptions,
    readonly recorder: SampleRecorder,
    private readonly decider: Decider,
    private readonly tabs: ContextTabs,
    private readonly client: ModelClient | undefined,
    private readonly policy: ReturnType<typeof createPolicy>,
    private readonly memory: RunMemory,
    private readonly initialNotices: string[],
  ) {}

  static async prepare(options: SessionOptions): Promise<SampleSession> {
    const { task, sample, context, page } = options;
    const spec = task.spec;
    const secrets = secretsFromEnv();
    const masker = SecretMasker.of(secrets);
    let client: ModelClient | undefined;
    const memory = new RunMemory(path.join(runDir(options.runId), 'memory'), masker);
    let recorderRef: SampleRecorder | undefined;
    let tabsRef: ContextTabs | undefined;
    const policy = createPolicy(spec, {
      tasksDir: settings.tasksDir,
      values: placeholderValuesFromEnv(),
      scopes: secretScopesOf(spec, sample),
      runDir: runDir(options.runId),
    });
    const factories: DeciderFactories = {
      model: () =>
        new ModelDecider(spec, sample, (client ??= new ModelClient(modelSettings(), env.ANTHROPIC_API_KEY, masker)), {
          attempt: options.attempt,
          // Chosen once, now: the sample's prompt prefix stays byte-identical; what is learned meanwhile serves the next sample.
          tips: memory.hints(spec.task_id, spec.goal),
          onUsage: usage => recorderRef?.addUsage(usage),
          canUpload: hasInputFiles(policy.inputDir),
        }),
      ...options.deciders,
    };
    const compiled = options.decider || options.deciderMode === 'model' ? undefined : compiledRecipe(task);
    const decider = options.decider
      ? options.decider(() => tabsRef?.active ?? page)
      : selectDecider(spec, options.deciderMode, Boolean(env.ANTHROPIC_API_KEY), factories, compiled);
    const modelBlocked = decider.kind === 'model' ? options.modelBlocker?.() : undefined;
    if (modelBlocked) throw new Error(modelBlocked);
    const dir = options.dir ?? sampleDir(options.runId, spec.task_id, sample.sample_id);
    const archived = archivePreviousAttempt(dir);
    const store = new EvidenceStore(dir, masker);
    if (options.onArtifact) store.onArtifact(options.onArtifact);
    const recorder = new SampleRecorder({
      task,
      sample,
      runId: options.runId,
      attempt: options.attempt,
      decider: decider.kind,
      store,
      onFileWritten: options.onFileWritten,
    });
    recorderRef = recorder;
    const notices: string[] = [];
    if (archived) {
      recorder.notes.push(`earlier attempt's evidence kept in ${path.basename(archived)}/`);
      const resumed = resumeFromCheckpoint(recorder, archived);
      if (resumed) notices.push(resumed);
    }
    const tabs = (tabsRef = await prepareSampleContext(context, page, {
      isAllowedUrl: policy.isAllowedUrl,
      dialogPolicy: spec.dialog_policy,
      paceNavigation: url => policy.limiter.pace(url),
    }));
    return new SampleSession(options, recorder, decider, tabs, client, policy, memory, notices);
  }

  async run(): Promise<Result> {
    const spec = this.options.task.spec;
    const deadline = AbortSignal.timeout(spec.max_time_seconds * 1000);
    const view =
      this.decider.needsView || this.decider instanceof SelfHealingDecider
        ? pageViewer({ task: spec, tokenBudget: settings.snapshotTokens, vision: this.visionGate() })
        : undefined;
    let outcome: SampleOutcome;
    try {
      outcome = await runSample({
        task: spec,
        sample: this.options.sample,
        context: this.options.context,
        tabs: this.tabs,
        recorder: this.recorder,
        decider: this.decider,
        policy: this.policy,
        view,
        runStep: this.options.runStep,
        signal: deadline,
        actionTimeoutMs: this.options.actionTimeoutMs,
        initialNotices: this.initialNotices,
        batchJudgment: settings.judge === 'batch',
        onStartPage: this.options.onStartPage,
        onModelAnswer: this.options.onModelAnswer,
      });
    } catch (error) {
      outcome = { status: 'failed', error: error instanceof Error ? error.message : String(error) };
    }
    const failedSteps = this.decider.failedSteps ?? [];
    this.recorder.failedSteps.push(...failedSteps);
    outcome = withDisagreements(withFailedSteps(outcome, failedSteps), this.recorder.disagreements());
    if (this.options.learn !== false) {
      // Before the result is written, so the memory call's usage is the sample's.
      const preview = this.recorder.preview(outcome.status, outcome.error);
      // A sample no model decided (a replay) learns from its log alone: a replay makes no model call, not even a fast one.
      const distiller = preview.usage.model_calls > 0 ? this.client : undefined;
      // The log as written (secrets masked): tips are learned from what may leave the process, never from raw page text.
      const log = this.recorder.store.masker.value(this.recorder.log, ACTION_LOG_IDENTIFIERS);
      const memoryProblem = await learnFromSample(this.memory, spec, preview, log, distiller, usage => this.recorder.addUsage(usage));
      if (memoryProblem) console.warn(this.recorder.store.masker.text(`bwa: ${spec.task_id}/${this.options.sample.sample_id}: ${memoryProblem}`));
    }
    // Right before the result is written: a recording counts the done samples on disk, and the run-memory call above
    // can take seconds — counted before it, two samples ending together each saw only itself and neither compiled.
    await this.afterLoop(outcome.status);
    return this.recorder.finish(outcome.status, outcome.error);
  }

  /** Screenshots ride in the decisions of a model-decided sample only. */
  private visionGate(): VisionGate | undefined {
    return this.client ? new VisionGate() : undefined;
  }

  private async afterLoop(status: SampleOutcome['status']): Promise<void> {
    const healed = this.decider instanceof SelfHealingDecider ? this.decider : undefined;
    for (const repair of healed?.repairs ?? []) this.recorder.notes.push(`self-heal: ${repair.reason}; the model took over`);
    const { task, sample, context, runId } = this.options;
    const note = await this.options.afterLoop?.({
      task,
      sample,
      context,
      runId,
      recorder: this.recorder,
      status,
      deciderKind: this.decider.kind,
      repairedFrom: healed?.repairedAStep ? healed.revision : undefined,
    });
    if (note) this.recorder.notes.push(note);
  }
}

/**
 * Where the sample may type each secret. A start URL or profile that cannot be read leaves those sites out (the
 * sample fails on it anyway, with its own message): a secret is then typed nowhere rather than anywhere.
 */
function secretScopesOf(spec: TaskSpec, sample: Sample): SecretScopes {
  const attempt = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch {
      return undefined;
    }
  };
  const profile = spec.auth_profile ? attempt(() => loadAuthProfile(settings.tasksDir, spec.auth_profile!)) : undefined;
  return taskSecretScopes(spec, attempt(() => fillStartUrl(spec.start_url, sample)) ?? '', profile && { name: spec.auth_profile!, profile });
}

/**
 * A sample's context as observe() and the actions expect it, before its first page loads: the init scripts whose marks
 * the page state reads (click listeners, closed shadow roots), the evaluate shim, and the guards (allowed domains,
 * dialogs). `bwa look` opens its page in one too, so it sees what a sample's first look sees.
 */
export async function prepareSampleContext(context: BrowserContext, page: Page, guards: Omit<GuardOptions, 'tabs'>): Promise<ContextTabs> {
  const tabs = new ContextTabs(context, page);
  await installEvaluateShim(context);
  await installClickListenerMarks(context);
  await installClosedShadowRootMarks(context);
  await installGuards(context, { ...guards, tabs });
  return tabs;
}

/** A killed attempt's checkpoint carries the data it had collected: the new attempt starts from it. */
function resumeFromCheckpoint(recorder: SampleRecorder, archived: string): string | undefined {
  const parsed = Checkpoint.safeParse(readJsonIfExists(path.join(archived, CHECKPOINT_FILE)));
  if (!parsed.success || parsed.data.status !== 'in_progress' || Object.keys(parsed.data.accumulated_data).length === 0) return undefined;
  const checkpoint = parsed.data;
  recorder.accumulated = { ...checkpoint.accumulated_data };
  recorder.progressNotes.push(...checkpoint.progress_notes);
  recorder.resumedFrom = `${path.basename(archived)}/${CHECKPOINT_FILE} (step ${checkpoint.step})`;
  recorder.notes.push(`resumed from ${recorder.resumedFrom}`);
  return `This sample was interrupted at step ${checkpoint.step} of an earlier attempt and resumes from its checkpoint: the data collected so far is shown below. Continue with what is still missing; do not redo collected items.`;
}
