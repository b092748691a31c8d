import { test as base, type TestInfo } from '@playwright/test';
import 'dotenv/config';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { installGuards } from './browser/guards';
import { ContextPages } from './browser/page-tracker';
import { createPolicy } from './browser/policy';
import { redactorFor, secretsFromEnv } from './browser/secrets';
import { ModelClient } from './decide/model-client';
import { ModelDecider } from './decide/model-decider';
import { modelSettings } from './decide/model-settings';
import { selectDecider, type DeciderFactories, type DeciderMode } from './decide/select';
import { visionHook } from './decide/vision';
import { pageViewer } from './loop/view';
import { archivePreviousAttempt } from './evidence/attempts';
import { readJsonIfExists } from './evidence/atomic';
import { Result, type SampleStatus } from './evidence/result-schema';
import { EvidenceStore } from './evidence/store';
import { ACTION_LOG_FILE, CHECKPOINT_FILE, RESULT_FILE, SampleRecorder } from './loop/recorder';
import { runSample, type StepRunner } from './loop/run-sample';
import { sampleDir, settings } from './settings';
import type { LoadedTask } from './task/load-task';
import type { Sample } from './task/samples';

export interface AgentOptions {
  /** Statuses that fail the test besides "failed" (default: none — they pass with an annotation). */
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

export const ATTACHMENT = {
  result: 'bwa-result',
  actionLog: 'bwa-action-log',
  checkpoint: 'bwa-checkpoint',
  artifactPrefix: 'bwa-artifact:',
} as const;

const FILE_ATTACHMENTS: Record<string, string> = { [RESULT_FILE]: ATTACHMENT.result, [ACTION_LOG_FILE]: ATTACHMENT.actionLog, [CHECKPOINT_FILE]: ATTACHMENT.checkpoint };

export const test = base.extend<AgentOptions & { agent: AgentRunner }>({
  agentFailOn: [[], { option: true }],
  agentActionTimeout: [60_000, { option: true }],
  agentDecider: [settings.decider, { option: true }],
  agentDeciders: [{}, { option: true }],
  agent: async ({ page, context, agentFailOn, agentActionTimeout, agentDecider, agentDeciders }, use, testInfo) => {
    let recorder: SampleRecorder | undefined;
    const runner: AgentRunner = {
      async run(task, sample) {
        const dir = sampleDir(settings.runId, task.spec.task_id, sample.sample_id);
        const previous = Result.safeParse(readJsonIfExists(path.join(dir, RESULT_FILE)));
        if (previous.success && previous.data.status === 'done') {
          await attachResumed(testInfo, dir, previous.data);
          test.skip(true, `resumed: ${sample.sample_id} is already done in run ${settings.runId}`);
        }
        const spec = task.spec;
        testInfo.setTimeout(Math.max(testInfo.timeout, (spec.max_time_seconds + 90) * 1000));
        const secrets = secretsFromEnv();
        let client: ModelClient | undefined;
        const model = () => (client ??= new ModelClient(modelSettings()));
        const decider = selectDecider(spec, agentDecider, Boolean(process.env.ANTHROPIC_API_KEY), {
          model: () => new ModelDecider(spec, sample, model(), { attempt: testInfo.retry }),
          ...agentDeciders,
        });
        const archived = archivePreviousAttempt(dir);
        const store = new EvidenceStore(dir, redactorFor(secrets));
        store.onArtifact((artifact, file) => testInfo.attach(`${ATTACHMENT.artifactPrefix}${artifact.filename}`, { path: file, contentType: contentTypeOf(artifact.filename) }));
        const sampleRecorder = (recorder = new SampleRecorder({ task, sample, runId: settings.runId, attempt: testInfo.retry, decider: decider.kind, store }));
        const view = decider.needsView
          ? pageViewer({ task: spec, tokenBudget: snapshotTokens(), vision: client ? visionHook(client, usage => sampleRecorder.addUsage(usage)) : undefined })
          : undefined;
        if (archived) recorder.notes.push(`earlier attempt's evidence kept in ${path.basename(archived)}/`);
        const tracker = new ContextPages(context, page);
        const policy = createPolicy(spec, { tasksDir: settings.tasksDir, secrets });
        await installGuards(context, { isAllowedUrl: policy.isAllowedUrl, dialogPolicy: spec.dialog_policy, tracker });
        const deadline = AbortSignal.timeout(spec.max_time_seconds * 1000);
        const runStep: StepRunner = (title, body) => test.step(title, body);
        let outcome;
        try {
          outcome = await runSample({ task: spec, sample, context, tracker, recorder, decider, policy, view, runStep, signal: deadline, actionTimeoutMs: agentActionTimeout });
          if (deadline.aborted && outcome.status === 'failed') outcome.error = `max_time_seconds (${spec.max_time_seconds}) reached`;
        } catch (error) {
          outcome = { status: 'failed' as const, error: error instanceof Error ? error.message : String(error) };
        }
        const result = recorder.finish(outcome.status, outcome.error);
        await attachRecord(testInfo, dir);
        testInfo.annotations.push({ type: 'bwa-status', description: result.status });
        if (result.status === 'failed') throw new Error(`${sample.sample_id}: failed — ${result.error ?? 'no reason given'}`);
        if (result.status !== 'done') {
          testInfo.annotations.push({ type: result.status, description: result.error ?? '' });
          if (agentFailOn.includes(result.status)) throw new Error(`${sample.sample_id}: ${result.status} — ${result.error ?? ''}`);
        }
        return result;
      },
    };
    await use(runner);
    if (recorder && !recorder.result) {
      // The body threw or timed out before the loop finished: the record is still written and attached.
      const reason = testInfo.status === 'timedOut' ? `test timed out after ${testInfo.timeout} ms` : (testInfo.error?.message ?? 'the test ended before the sample finished');
      recorder.finish('failed', reason.split('\n')[0] ?? reason);
      await attachRecord(testInfo, recorder.store.dir);
    }
  },
});

function snapshotTokens(): number | undefined {
  const raw = process.env.AGENT_SNAPSHOT_TOKENS;
  return raw ? Number(raw) : undefined;
}

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
    if (fs.existsSync(file)) await testInfo.attach(`${ATTACHMENT.artifactPrefix}${artifact.filename}`, { path: file, contentType: contentTypeOf(artifact.filename) });
  }
  await attachRecord(testInfo, dir);
}

export function contentTypeOf(filename: string): string {
  const ext = path.extname(filename).toLowerCase();
  return { '.png': 'image/png', '.jpg': 'image/jpeg', '.json': 'application/json', '.csv': 'text/csv', '.pdf': 'application/pdf', '.txt': 'text/plain', '.html': 'text/html' }[ext] ?? 'application/octet-stream';
}

export { expect } from '@playwright/test';
