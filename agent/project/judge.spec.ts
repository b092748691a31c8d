import { test } from '@playwright/test';
import * as path from 'node:path';
import { SecretMasker } from '../secrets/masker';
import { secretsFromEnv } from '../env/read';
import { ModelClient } from '../decide/model-client';
import { usageTokens } from '../evidence/result-schema';
import { modelSettings } from '../decide/model-settings';
import { pendingJudgments } from '../judge/pending';
import { judgePending } from '../judge/run-judge';
import { ACTION_LOG_FILE, RESULT_FILE } from '../loop/recorder';
import { ATTACHMENT_NAMES } from '../report/collect';
import { settings } from '../settings';
import { discoveredSamplesFile } from '../task/discovered';
import { loadSuite } from '../task/suite';

/** Per call: the model answers for up to AGENT_JUDGE_BATCH samples at once. */
const SECONDS_PER_BATCH = 180;

// Runs after every sample test (the teardown of "setup"): samples replayed from a recipe under AGENT_JUDGE=batch
// left their judgment to this; one model call judges a batch of them.
// A task that cannot load ran no samples: the tasks project reports it.
const suite =
  settings.judge === 'batch'
    ? loadSuite({ tasksDir: settings.tasksDir, adHocUrl: settings.adHocUrl, discoveredSamplesFile, onBroken: () => {} })
    : [];

for (const { task, samples, missing } of suite) {
  if (!task.spec.judgment_required || missing) continue;
  const taskId = task.spec.task_id;
  test(`judge ${taskId}`, { tag: `@${taskId}` }, async ({}, testInfo) => {
    const pending = pendingJudgments(
      settings.runId,
      taskId,
      samples.map(s => s.sample_id),
    );
    test.skip(pending.length === 0, 'no sample of this run is waiting for a batch judgment');
    let client: ModelClient;
    try {
      client = new ModelClient(modelSettings());
    } catch (error) {
      throw new Error(
        `${pending.length} sample(s) of ${taskId} wait for a batch judgment (AGENT_JUDGE=batch) but the judge cannot call the model: ${(error as Error).message}. They stay needs_review; rerun with a key to judge them.`,
      );
    }
    const batchSize = settings.judgeBatchSize;
    testInfo.setTimeout(Math.ceil(pending.length / batchSize) * SECONDS_PER_BATCH * 1000);
    const run = await judgePending({ client, task: task.spec, runId: settings.runId, pending, batchSize, masker: SecretMasker.of(secretsFromEnv()) });
    for (const { dir, result } of run.judged) {
      const name = `${ATTACHMENT_NAMES.judgedPrefix}${taskId}/${result.sample_id}`;
      await testInfo.attach(`${name}/action_log.json`, { path: path.join(dir, ACTION_LOG_FILE), contentType: 'application/json' });
      await testInfo.attach(`${name}/result.json`, { path: path.join(dir, RESULT_FILE), contentType: 'application/json' });
    }
    testInfo.annotations.push({
      type: 'bwa-judge',
      description: `${run.judged.length} samples judged in ${run.batches} batch(es): ${run.usage.model_calls} model calls, ${usageTokens(run.usage)} tokens`,
    });
    const unjudged = run.judged.filter(j => j.result.status !== 'done');
    if (unjudged.length)
      throw new Error(
        `${unjudged.length} of ${run.judged.length} sample(s) got no usable judgment (now needs_review):\n${unjudged.map(j => `  ${j.result.sample_id}: ${j.result.error}`).join('\n')}`,
      );
  });
}
