import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ActionLogEntry, Result } from '../../../agent/evidence/result-schema';
import { startModelServer, type ModelServer } from '../../../fixtures/model-server';
import { runNested } from '../helpers/nested-run';
import { tempDir, writeFiles } from '../helpers/temp';

const TASK = 'blame_materiality';
const SAMPLES = 5;

let server: ModelServer;
test.beforeAll(async () => {
  server = await startModelServer({ port: 0 });
});
test.afterAll(async () => {
  await server.close();
});

/** The bundled task with its first rows only, in a tasks folder of its own. */
function tasksWithFirstRows(): { dir: string; ids: string[] } {
  const dir = tempDir('bwa-judge-tasks-');
  const lines = fs
    .readFileSync(path.resolve('tasks', 'inputs', `${TASK}.csv`), 'utf8')
    .trim()
    .split('\n');
  writeFiles(dir, {
    [`${TASK}.json`]: fs.readFileSync(path.resolve('tasks', `${TASK}.json`), 'utf8'),
    [`inputs/${TASK}.csv`]: lines.slice(0, SAMPLES + 1).join('\n') + '\n',
  });
  return { dir, ids: lines.slice(1, SAMPLES + 1).map(line => line.slice(0, line.indexOf(','))) };
}

/**
 * The scripted judge's answers are stated by the test, not derived from the facts: these tests check how bwa batches,
 * checks and retries them and passes them through into result.json and the CSV — not what a judge concludes.
 */
const judgmentFor = (id: string, answer = 'no') => ({ answer, confidence: 0.8, reasoning: `judged ${id}`, evidence_refs: [] });
/** The judge's answer for one sample: the judgment, and material_change, the verdict field no page shows. */
const verdictFor = (id: string, answer = 'no') => ({ judgment: judgmentFor(id, answer), fields: { material_change: answer } });

async function runBatchJudged(ids: string[], tasks: string) {
  const reports = tempDir('bwa-judge-reports-');
  const run = await runNested({
    args: ['--project=bwa', `--grep=@${TASK}`, '--workers=2'],
    env: {
      AGENT_TASKS_DIR: tasks,
      AGENT_REPORTS_DIR: reports,
      AGENT_RUN_ID: 'judged',
      AGENT_DECIDER: 'recipe',
      AGENT_JUDGE: 'batch',
      AGENT_JUDGE_BATCH: '2',
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: server.url,
      AGENT_MODEL_RETRIES: '0',
      AGENT_TRACE: 'off',
    },
  });
  const runDir = path.join(reports, 'runs', 'judged');
  const result = (id: string) => Result.parse(JSON.parse(fs.readFileSync(path.join(runDir, TASK, id, 'result.json'), 'utf8')));
  const log = (id: string) => ActionLogEntry.array().parse(JSON.parse(fs.readFileSync(path.join(runDir, TASK, id, 'action_log.json'), 'utf8')));
  const csv = parse(fs.readFileSync(path.join(runDir, TASK, 'combined.csv'), 'utf8'), { columns: true }) as Array<Record<string, string>>;
  const manifest = JSON.parse(fs.readFileSync(path.join(runDir, 'manifest.json'), 'utf8'));
  return { run, result, log, csv, manifest };
}

test("AGENT_JUDGE=batch: recipe samples leave the judgment to the judge, which asks once per batch with each sample's facts and retries only what it got wrong; the judgments it states are passed through; a sample it never answers stays needs_review and the judge test fails naming it", async () => {
  test.setTimeout(240_000);
  const { dir, ids } = tasksWithFirstRows();
  const wrongFirst = ids[1]!;
  const forgotten = ids[4]!;
  const judged = ids.filter(id => id !== forgotten);
  // The judge's answers name every sample but the forgotten one, whatever the batch holds.
  const answer = (overrides: Record<string, unknown> = {}) =>
    JSON.stringify(Object.fromEntries(judged.map(id => [id, overrides[id] ?? verdictFor(id)])));
  server.reset();
  server.setScript(TASK, 'judge-batch', {
    text: [
      // Batches of two: the first answer gives one sample a value outside the schema; asked again alone, it is right.
      {
        contains: 'Judge these 2 samples',
        answer: `Here you are:\n\`\`\`json\n${answer({ [wrongFirst]: verdictFor(wrongFirst, 'maybe') })}\n\`\`\``,
      },
      { contains: 'Judge these 1 samples', answer: answer({ [wrongFirst]: verdictFor(wrongFirst, 'yes') }) },
    ],
    on_unmatched: 'error',
  });
  const { run, result, log, csv, manifest } = await runBatchJudged(ids, dir);
  expect(server.errors).toEqual([]);
  expect(run.code, 'the judge test fails: one sample has no judgment').not.toBe(0);
  expect(run.output).toContain(`${forgotten}: batch judgment: the judge gave no judgment for it`);
  // 5 samples in batches of 2 → 3 calls, plus 1 for the sample the first answer got wrong and 1 for the one it left
  // out; none from a sample.
  const calls = server.requests.filter(r => r.key?.taskId === TASK);
  expect(calls.map(r => r.key?.sampleId)).toEqual(ids.map(() => 'judge-batch'));
  expect(calls.every(r => r.kind === 'text')).toBe(true);
  for (const id of judged) {
    const r = result(id);
    expect(r.status, `${id}: ${r.error}`).toBe('done');
    expect(r.judgment, 'the judgment the scripted judge stated, passed through').toEqual(judgmentFor(id, id === wrongFirst ? 'yes' : 'no'));
    expect(r.extracted.material_change, 'the verdict the scripted judge stated, passed through').toMatchObject({
      value: id === wrongFirst ? 'yes' : 'no',
      provenance: { source: 'model' },
    });
    expect(r.extracted.file_path?.provenance.source, 'facts stay as the recipe read them').toBe('dom');
    // The judge was asked with the facts the recipe read for this sample.
    const asked = calls.filter(c => c.lastUserText.includes(`## sample_id ${JSON.stringify(id)}`));
    expect(asked.length, `${id} was in a batch`).toBeGreaterThan(0);
    for (const call of asked) expect(call.lastUserText).toContain(JSON.stringify(r.extracted.file_path!.value));
    expect(r.judgment_pending).toBeUndefined();
    expect(r.judgment_batch?.id).toMatch(/^judged\/blame_materiality\/judge-[123]$/);
    expect(r.usage.model_calls, 'the sample itself made no model call').toBe(0);
    const last = log(id).at(-1)!;
    expect(last.decider).toBe('judge');
    expect(last.outcome.success).toBe(true);
    expect(last.outcome.description).toContain(`batch ${r.judgment_batch!.id}`);
  }
  expect(result(ids[0]!).judgment_batch?.size).toBe(2);
  expect(result(wrongFirst).judgment_batch?.usage.model_calls).toBe(2);
  const left = result(forgotten);
  expect(left.status).toBe('needs_review');
  expect(left.judgment).toBeNull();
  expect(left.judgment_batch?.usage.model_calls, 'asked again once, alone').toBe(2);
  // The run's own outputs (written by the reporter from attachments) carry the judged results.
  expect(Object.fromEntries(csv.map(row => [row.sample_id, row.status]))).toEqual(
    Object.fromEntries(ids.map(id => [id, id === forgotten ? 'needs_review' : 'done'])),
  );
  expect(JSON.parse(csv.find(row => row.sample_id === wrongFirst)!.judgment!).answer, 'stated by the judge, passed through').toBe('yes');
  expect(csv.find(row => row.sample_id === wrongFirst)!.material_change, 'stated by the judge, passed through').toBe('yes');
  expect(manifest.counts.done).toBe(SAMPLES - 1);
  // The facts were read by the recipe and the judge saw them, fenced as page data.
  const first = calls[0]!;
  expect(first.lastUserText).toContain('<page_state>');
  // Routed by its x-bwa-task / x-bwa-sample headers (the calls above): the prompt carries no routing line.
  expect(first.system.map(b => b.text).join('\n')).not.toMatch(/^(?:task_id|sample_id|attempt):/m);
  expect(
    first.system.some(b => b.cache_control),
    'the instructions are cached across batches',
  ).toBe(true);
});
