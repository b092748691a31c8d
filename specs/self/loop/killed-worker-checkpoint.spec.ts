import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect, test } from '@playwright/test';
import { startModelServer, type ModelServer } from '../../../fixtures/model-server';
import { prAuditChainScript } from '../../../fixtures/model-scripts/pr-audit-chain';
import type { RepoTruth } from '../../../fixtures/sites/audit/truth';
import { PROJECT_ROOT, startNested } from '../helpers/nested-run';
import { tempDir, writeFiles } from '../helpers/temp';
import { auditTruth, repoTruth, truePr } from '../workflows/audit-env';

test.setTimeout(240_000);

let server: ModelServer;
let anvil: RepoTruth;

test.beforeAll(async ({ request }) => {
  server = await startModelServer({ port: 0 });
  anvil = repoTruth(await auditTruth(request), 'acme/anvil');
});
test.afterAll(async () => server.close());

/** The Playwright worker processes a runner started (its other children would be web servers). */
function workerPids(runnerPid: number): number[] {
  let children: number[];
  try {
    children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(runnerPid)], { encoding: 'utf8' })
      .split('\n')
      .map(Number)
      .filter(Boolean);
  } catch {
    return []; // ps exits 1 when there are none
  }
  return children.filter(pid => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('workerProcessEntry');
    } catch {
      return false;
    }
  });
}

function readJson(file: string): any {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

test('a sample whose worker is SIGKILLed resumes in the retry from its checkpoint: all 5 items, the first attempt kept in attempt-1/', async () => {
  // The same script for both attempts: it opens the first PR of the merged list that the prompt's collected data
  // does not hold yet, so the retry picks up after whatever its checkpoint saved.
  server.setScript('pr_audit_chain', 'anvil', prAuditChainScript('acme/anvil'), 0);
  server.setScript('pr_audit_chain', 'anvil', prAuditChainScript('acme/anvil'), 1);
  const tasksDir = tempDir('bwa-resume-kill-tasks-');
  writeFiles(tasksDir, {
    'pr_audit_chain.json': fs
      .readFileSync(path.join(PROJECT_ROOT, 'tasks/pr_audit_chain.json'), 'utf8')
      .replace('"$schema": "./task.schema.json",', ''),
    'inputs/pr_audit_chain.csv': 'sample_id,owner,repo\nanvil,acme,anvil\n',
  });
  const reports = tempDir('bwa-resume-kill-reports-');
  const dir = path.join(reports, 'runs', 'killed-worker', 'pr_audit_chain', 'anvil');
  const nested = startNested({
    args: ['--project=bwa', '--grep', '@pr_audit_chain', '--workers=1', '--retries=1', '--reporter=list'],
    env: {
      AGENT_TASKS_DIR: tasksDir,
      AGENT_REPORTS_DIR: reports,
      AGENT_RUN_ID: 'killed-worker',
      ANTHROPIC_API_KEY: 'x',
      ANTHROPIC_BASE_URL: server.url,
      AGENT_DECIDER: 'model',
      AGENT_MODEL_RETRIES: '1',
    },
  });

  const savedItems = () => {
    if (nested.child.exitCode !== null) throw new Error(`the nested run ended before it could be killed:\n${nested.output()}`);
    return readJson(path.join(dir, 'checkpoint.json'))?.accumulated_data?.prs?.length ?? 0;
  };
  await expect.poll(savedItems, { timeout: 150_000, intervals: [50] }).toBeGreaterThanOrEqual(2);
  const workers = workerPids(nested.child.pid!);
  expect(workers, nested.output()).toHaveLength(1);
  process.kill(workers[0]!, 'SIGKILL');
  const run = await nested.done;
  expect(run.code, run.output).toBe(0);
  expect(run.output).toMatch(/1 flaky/);

  // The first attempt's files, moved aside untouched: an in-progress checkpoint, its log, its screenshots, no result.
  const archived = path.join(dir, 'attempt-1');
  const killedCheckpoint = readJson(path.join(archived, 'checkpoint.json'));
  expect(killedCheckpoint.status).toBe('in_progress');
  const savedBeforeKill = killedCheckpoint.accumulated_data.prs.length;
  expect(savedBeforeKill).toBeGreaterThanOrEqual(2);
  expect(savedBeforeKill).toBeLessThan(5);
  expect(fs.existsSync(path.join(archived, 'result.json'))).toBe(false);
  expect(readJson(path.join(archived, 'action_log.json')).length).toBeGreaterThanOrEqual(killedCheckpoint.steps_logged);
  expect(fs.readdirSync(archived)).toEqual(expect.arrayContaining(['01_merged-list.png', `02_pr-${anvil.recent_merged[0]!.number}.png`]));

  // The retry started from that checkpoint and finished the audit.
  const result = readJson(path.join(dir, 'result.json'));
  expect(result).toMatchObject({ status: 'done', attempt: 1, resumed_from: `attempt-1/checkpoint.json (step ${killedCheckpoint.step})` });
  expect(result.extracted.prs.value).toEqual(anvil.recent_merged.map(truePr));
  expect(result.notes).toContain("earlier attempt's evidence kept in attempt-1/");
  expect(result.judgment.answer).toBe(anvil.audit_answer);
  const retryTurns = server.requests.filter(r => r.kind === 'decider' && r.key.attempt === '1');
  expect(retryTurns[0]!.lastUserText).toContain(
    `This sample was interrupted at step ${killedCheckpoint.step} of an earlier attempt and resumes from its checkpoint`,
  );
  for (const pr of anvil.recent_merged.slice(0, savedBeforeKill)) expect(retryTurns[0]!.lastUserText).toContain(pr.title);
  // The retry redid no PR it had already saved: it audited exactly the rest, in list order.
  const retried = retryTurns
    .flatMap(r => r.response.toolUses ?? [])
    .filter(u => u.name === 'save_progress')
    .map(u => (u.input.data as { prs: Array<{ number: number }> }).prs[0]!.number);
  expect(retried).toEqual(anvil.recent_merged.slice(savedBeforeKill).map(pr => pr.number));
});
