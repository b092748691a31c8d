import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect, test } from '../../../agent/fixture';
import { RunMemory } from '../../../agent/memory/run-memory';
import { runDir } from '../../../agent/settings';
import { CONTRIBUTOR_TIPS, contributorAuditScript } from '../../../fixtures/model-scripts/contributor-audit';
import { bundledTask, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { PROJECT_ROOT } from '../helpers/nested-run';
import { tempDir } from '../helpers/temp';
import { deciderTurns, stepOf } from '../workflows/audit-env';
import { SITE_HOST } from '../helpers/sites';

const FAST_MODEL = 'claude-haiku-5-5';
const TIPS_HEADER = "Tips from earlier samples of this run (may not apply; {{column}} = this sample's input):";

const model = useScriptedModel({ AGENT_FAST_MODEL: FAST_MODEL, AGENT_MEMORY_DISTILL: 'on' });

test('run memory: a done sample teaches the next samples of its task (every step, chosen at the start), a failed one warns them; other tasks see nothing', async ({
  agent,
}) => {
  const runId = process.env.AGENT_RUN_ID;
  // A run of its own, so memory written by other tests of this worker cannot leak in.
  process.env.AGENT_RUN_ID = `memory-${process.pid}-${Date.now()}`;
  try {
    const memory = new RunMemory(path.join(runDir(process.env.AGENT_RUN_ID), 'memory'));
    const contributors = bundledTask('contributor_audit');
    const row = (id: string, repo: string) => sampleOf({ sample_id: id, owner: 'acme', repo });

    // 1. A done sample: the fast model distils its log into tips (patterns.json).
    model.server.setScript('contributor_audit', 'mem-done', contributorAuditScript('acme/anvil'));
    expect((await agent.run(contributors, row('mem-done', 'anvil'))).status).toBe('done');
    const distill = model.server.requests.find(
      r => r.kind === 'text' && r.key.sampleId === 'mem-done' && r.lastUserText.includes('navigation tips'),
    )!;
    expect(distill.model).toBe(FAST_MODEL);
    expect(deciderTurns(model.server.requests, 'mem-done').every(t => !t.system[1]!.text.includes(TIPS_HEADER))).toBe(true);
    expect(memory.patterns().map(p => [p.task_id, p.tip, p.from_sample])).toEqual(
      CONTRIBUTOR_TIPS.map(tip => ['contributor_audit', tip, 'mem-done']),
    );

    // 2. The next sample of the same task gets the tips, marked with how many samples they held on, in every
    // decision (the sample block stays byte-identical, so it stays cached); it then fails.
    model.server.setScript('contributor_audit', 'mem-failed', {
      steps: [
        { tool: 'screenshot', args: { label: 'contributors' } },
        { tool: 'click', target: { role: 'link', name: 'grace' } },
        { tool: 'screenshot', args: { label: 'profile-grace' } },
        { tool: 'go_back', args: {} },
        { tool: 'fail', args: { reason: 'the ranking could not be confirmed' } },
      ],
    });
    await expect(agent.run(contributors, row('mem-failed', 'rocket'))).rejects.toThrow(/mem-failed: failed/);
    const turns = deciderTurns(model.server.requests, 'mem-failed');
    expect(turns.map(stepOf)).toEqual([2, 3, 4, 5, 6]);
    const tipsBlock = `${TIPS_HEADER}\n${CONTRIBUTOR_TIPS.map(t => `- ${t} (held on 1 sample)`).join('\n')}`;
    expect(turns.map(t => t.system[1]!.text.includes(tipsBlock))).toEqual([true, true, true, true, true]);
    expect(turns.every(t => JSON.stringify(t.system) === JSON.stringify(turns[0]!.system))).toBe(true);
    // failures.json: what went wrong, for this task.
    expect(memory.warnings().map(w => [w.task_id, w.host, w.warning, w.from_sample])).toEqual([
      ['contributor_audit', SITE_HOST.audit, 'ended failed: the ranking could not be confirmed', 'mem-failed'],
    ]);

    // 3. Another task of the same run: no tips, no warnings.
    model.server.setScript('pr_audit_chain', 'mem-other', {
      steps: [
        { tool: 'screenshot', args: { label: 'merged-list' } },
        { tool: 'fail', args: { reason: 'stopping early' } },
      ],
    });
    await expect(agent.run(bundledTask('pr_audit_chain'), sampleOf({ sample_id: 'mem-other', owner: 'acme', repo: 'anvil' }))).rejects.toThrow(
      /mem-other: failed/,
    );
    expect(deciderTurns(model.server.requests, 'mem-other').map(t => /Tips from earlier samples|Warning \(/.test(t.system[1]!.text))).toEqual([
      false,
      false,
    ]);

    // 4. A later sample of the first task sees the tips and the warning, and not the other task's failure.
    model.server.setScript('contributor_audit', 'mem-later', { steps: [{ tool: 'fail', args: { reason: 'only looking' } }] });
    await expect(agent.run(contributors, row('mem-later', 'toolbox'))).rejects.toThrow(/mem-later: failed/);
    const [later] = deciderTurns(model.server.requests, 'mem-later');
    expect(later!.system[1]!.text).toContain('- Warning (127.0.0.1:4108): ended failed: the ranking could not be confirmed (seen on 1 sample)');
    expect(later!.system[1]!.text).toContain(`- ${CONTRIBUTOR_TIPS[0]} (held on 1 sample)`);
    expect(later!.system[1]!.text).not.toContain('stopping early');
  } finally {
    process.env.AGENT_RUN_ID = runId;
  }
});

test('run memory is safe with 4 worker processes appending at once: no update lost', async () => {
  const dir = tempDir('bwa-memory-lock-');
  const perWorker = 15;
  const ready = tempDir('bwa-memory-ready-');
  const writers = [1, 2, 3, 4].map(
    worker =>
      new Promise<{ code: number | null; output: string }>(resolve => {
        const child = spawn(
          process.execPath,
          ['--require', 'tsx/cjs', path.join(__dirname, 'memory-writer.ts'), dir, String(worker), String(perWorker), ready, '4'],
          {
            cwd: PROJECT_ROOT,
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let output = '';
        child.stdout.on('data', chunk => (output += String(chunk)));
        child.stderr.on('data', chunk => (output += String(chunk)));
        child.on('close', code => resolve({ code, output }));
      }),
  );
  for (const writer of await Promise.all(writers)) expect(writer.code, writer.output).toBe(0);
  const memory = new RunMemory(dir);
  const expected = (kind: string) => [1, 2, 3, 4].flatMap(w => Array.from({ length: perWorker }, (_, i) => `worker ${w} ${kind} ${i}`)).sort();
  expect(
    memory
      .patterns()
      .map(p => p.tip)
      .sort(),
  ).toEqual(expected('tip'));
  expect(
    memory
      .warnings()
      .map(w => w.warning)
      .sort(),
  ).toEqual(expected('warning'));
  // Each worker's own appends stay in its order; no lock file is left behind.
  for (const w of [1, 2, 3, 4]) {
    const mine = memory
      .patterns()
      .filter(p => p.from_sample === `w${w}`)
      .map(p => p.tip);
    expect(mine).toEqual(Array.from({ length: perWorker }, (_, i) => `worker ${w} tip ${i}`));
  }
  expect(fs.readdirSync(dir).sort()).toEqual(['failures.json', 'patterns.json']);
  // The writers did overlap: in the file's own order (the order of the appends) they take turns, where four
  // writers one after another would leave four runs, three changes of writer.
  const writerChanges = (order: string[]) => order.filter((w, i) => i > 0 && w !== order[i - 1]).length;
  expect(writerChanges(memory.patterns().map(p => p.from_sample))).toBeGreaterThan(3);
  expect(writerChanges(memory.warnings().map(w => w.from_sample))).toBeGreaterThan(3);
});
