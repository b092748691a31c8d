/**
 * Harness overhead per agent step with a zero-latency scripted model: everything a step costs beyond
 * Playwright's own action time (observe, prompt building, the local model round trip, recording).
 * Usage: npx tsx bench/harness/run.ts [--repeat 3]
 */
import * as path from 'node:path';
import { loadTaskFile } from '../../agent/task/load-task';
import { loadSamplesCsv } from '../../agent/task/samples';
import { SampleSession } from '../../agent/session';
import { startModelServer } from '../../fixtures/model-server';
import { peopleProfileScript } from '../../fixtures/model-scripts/people-profile';
import { ensureFixtureSites } from '../../fixtures/serve';
import { tempDirFor } from '../lib/temp';
import { CONTEXT_OPTIONS, launchChromium } from '../lib/browser';
import { median, p95, sum, table } from '../lib/stats';

async function main(): Promise<void> {
  const flag = process.argv.indexOf('--repeat');
  const repeat = flag === -1 ? 3 : Number(process.argv[flag + 1]);
  const sites = await ensureFixtureSites();
  const server = await startModelServer({ port: 0, latencyMs: 0 });
  Object.assign(process.env, { ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url, AGENT_RUN_ID: 'bench-harness' });
  const task = loadTaskFile(path.resolve('tasks/people_profile.json'));
  const samples = loadSamplesCsv(task.spec, path.resolve('tasks/inputs/people_profile.csv'));
  const browser = await launchChromium();
  const overhead: Record<string, number[]> = { model: [], recipe: [] };
  const turns: Array<(typeof server.requests)[number]> = [];
  const actionMs: Record<string, number[]> = { model: [], recipe: [] };
  try {
    for (let round = 0; round < repeat; round++) {
      for (const sample of samples) {
        for (const mode of ['model', 'recipe'] as const) {
          server.reset();
          server.setScript('people_profile', sample.sample_id, peopleProfileScript(sample.sample_id));
          const context = await browser.newContext(CONTEXT_OPTIONS);
          const page = await context.newPage();
          const session = await SampleSession.prepare({
            task,
            sample,
            context,
            page,
            runId: 'bench-harness',
            attempt: 0,
            deciderMode: mode,
            dir: tempDirFor(`${mode}-${sample.sample_id}`),
          });
          const result = await session.run();
          await context.close();
          if (result.status !== 'done') throw new Error(`${mode} ${sample.sample_id}: ${result.status} ${result.error}`);
          turns.push(...server.requests.filter(r => r.kind === 'decider'));
          const log = session.recorder.log;
          for (let i = 1; i < log.length; i++) {
            const gap = Date.parse(log[i]!.timestamp) - Date.parse(log[i - 1]!.timestamp);
            overhead[mode]!.push(Math.max(0, gap - log[i]!.duration_ms));
            actionMs[mode]!.push(log[i]!.duration_ms);
          }
        }
      }
    }
  } finally {
    await browser.close();
  }
  await server.close();
  await sites.close();

  const inputs = turns.map(
    t =>
      (t.response.usage?.input_tokens ?? 0) + (t.response.usage?.cache_read_input_tokens ?? 0) + (t.response.usage?.cache_creation_input_tokens ?? 0),
  );
  const cached = sum(turns.map(t => t.response.usage?.cache_read_input_tokens ?? 0));
  const staticShare =
    sum(turns.map(t => (t.response.usage?.cache_read_input_tokens ?? 0) + (t.response.usage?.cache_creation_input_tokens ?? 0))) /
    Math.max(1, sum(inputs));
  console.log(`harness benchmark — people_profile, ${samples.length} samples × ${repeat} rounds, zero-latency scripted model\n`);
  console.log(
    table(
      ['decider', 'steps measured', 'overhead/step median ms', 'overhead/step p95 ms', 'action time/step median ms'],
      (['model', 'recipe'] as const).map(mode => [
        mode,
        overhead[mode]!.length,
        median(overhead[mode]!),
        p95(overhead[mode]!),
        median(actionMs[mode]!),
      ]),
    ),
  );
  console.log(
    `\nprompt tokens per model step (estimated by the server, chars/3.6): median ${median(inputs).toFixed(0)}, p95 ${p95(inputs).toFixed(0)}`,
  );
  console.log(
    `share of input tokens in the cached static system block: ${(staticShare * 100).toFixed(1)}% (read from cache: ${((cached / Math.max(1, sum(inputs))) * 100).toFixed(1)}%)`,
  );
  console.log(`model overhead per step ÷ recipe overhead per step: ${(median(overhead.model!) / Math.max(1, median(overhead.recipe!))).toFixed(1)}×`);
  console.log(`target: model overhead ≤ 100 ms median per step — ${median(overhead.model!) <= 100 ? 'met' : 'NOT met'}`);
}

main().catch(error => {
  console.error(error);
  process.exit(1);
});
