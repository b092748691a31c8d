import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EvidenceStore } from '../../../agent/evidence/store';
import { deepMerge } from '../../../agent/loop/merge';
import { SampleRecorder } from '../../../agent/loop/recorder';
import { bundledTask, sampleOf } from '../helpers/agent-env';
import { tempDir } from '../helpers/temp';

test.describe('save_progress deep merge', () => {
  test('arrays append across calls, objects recurse, scalars are replaced', () => {
    let data: Record<string, unknown> = {};
    data = deepMerge(data, { prs: [{ number: 1, title: 'Fix editor' }], repo: { owner: 'acme' }, total: 1 });
    data = deepMerge(data, { prs: [{ number: 2, title: 'Refactor sync' }], repo: { name: 'anvil' }, total: 2 });
    data = deepMerge(data, { prs: [{ number: 3, title: 'Add cache' }], notes: ['three'] });
    expect(data).toEqual({
      prs: [
        { number: 1, title: 'Fix editor' },
        { number: 2, title: 'Refactor sync' },
        { number: 3, title: 'Add cache' },
      ],
      repo: { owner: 'acme', name: 'anvil' },
      total: 2,
      notes: ['three'],
    });
  });

  test('an item saved again under the same identity is merged, not counted twice', () => {
    const first = {
      prs: [
        { number: 241, title: 'Fix editor', reviewers: ['ada'] },
        { number: 239, title: 'Refactor' },
      ],
    };
    const again = { prs: [{ number: 241, title: 'Fix editor', ci_status: 'passed', reviewers: ['grace'] }] };
    expect(deepMerge(first, again)).toEqual({
      prs: [
        { number: 241, title: 'Fix editor', ci_status: 'passed', reviewers: ['ada', 'grace'] },
        { number: 239, title: 'Refactor' },
      ],
    });
    // The first identity key both items carry decides: same url, different title → one item.
    expect(deepMerge({ people: [{ url: '/u/1', title: 'Ada' }] }, { people: [{ url: '/u/1', title: 'Ada L.' }] })).toEqual({
      people: [{ url: '/u/1', title: 'Ada L.' }],
    });
    // Different ids never merge, even when other fields agree.
    expect(deepMerge({ items: [{ id: 1, name: 'x' }] }, { items: [{ id: 2, name: 'x' }] })).toEqual({
      items: [
        { id: 1, name: 'x' },
        { id: 2, name: 'x' },
      ],
    });
    // Items without an identity are de-duplicated only when equal; primitives likewise.
    expect(deepMerge({ rows: [{ a: 1 }], tags: ['x', 'y'] }, { rows: [{ a: 1 }, { a: 2 }], tags: ['y', 'z'] })).toEqual({
      rows: [{ a: 1 }, { a: 2 }],
      tags: ['x', 'y', 'z'],
    });
  });

  test('inputs are not mutated; undefined never erases; type changes replace', () => {
    const base = { prs: [{ number: 1 }], meta: { a: 1 } };
    const frozen = JSON.stringify(base);
    const out = deepMerge(base, { prs: [{ number: 2 }], meta: { b: 2 }, gone: undefined });
    expect(JSON.stringify(base)).toBe(frozen);
    expect(out).toEqual({ prs: [{ number: 1 }, { number: 2 }], meta: { a: 1, b: 2 } });
    expect(deepMerge({ value: [1] }, { value: 'now a string' })).toEqual({ value: 'now a string' });
  });
});

test.describe('the recorder keeps what was saved', () => {
  function recorder() {
    const dir = tempDir('bwa-recorder-');
    const task = bundledTask('pr_audit_chain');
    const store = new EvidenceStore(dir);
    const rec = new SampleRecorder({
      task,
      sample: sampleOf({ sample_id: 's1', owner: 'acme', repo: 'anvil' }),
      runId: 'r1',
      attempt: 0,
      decider: 'model',
      store,
    });
    const read = (file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    return { rec, read, dir, task };
  }

  test('every save_progress and every logged action write checkpoint.json with the action log flushed beside it', () => {
    const { rec, read, task } = recorder();
    const log = (step: number, name: string) =>
      rec.record({
        step,
        timestamp: 't',
        decider: 'model',
        action: { name, args: {} },
        outcome: { success: true, description: 'ok' },
        duration_ms: 1,
      });
    log(1, 'goto');
    log(2, 'click');
    rec.saveProgress({ prs: [{ number: 1 }] }, 'PR 1 of 5', 2);
    expect(read('checkpoint.json')).toMatchObject({
      status: 'in_progress',
      step: 2,
      max_steps: task.spec.max_steps,
      steps_logged: 2,
      accumulated_data: { prs: [{ number: 1 }] },
      progress_notes: ['PR 1 of 5'],
    });
    expect(read('action_log.json')).toHaveLength(2);
    rec.saveProgress({ prs: [{ number: 2 }] }, 'PR 2 of 5', 2);
    expect(read('checkpoint.json').accumulated_data.prs).toEqual([{ number: 1 }, { number: 2 }]);
    // Without saves, the checkpoint and the log are flushed after every logged action: a crash loses only the one in flight.
    for (let step = 3; step <= 7; step++) {
      log(step, 'scroll');
      expect(read('checkpoint.json')).toMatchObject({ step, steps_logged: step, accumulated_data: { prs: [{ number: 1 }, { number: 2 }] } });
      expect(read('action_log.json')).toHaveLength(step);
    }
  });

  test('finish merges the saved items with what done reports: a restated list adds to them, never replaces them', () => {
    const { rec, read } = recorder();
    rec.saveProgress(
      {
        prs: [
          { number: 1, title: 'a' },
          { number: 2, title: 'b' },
        ],
      },
      undefined,
      3,
    );
    rec.setField(
      'prs',
      [
        { number: 2, title: 'b', ci_status: 'passed' },
        { number: 3, title: 'c' },
      ],
      { source: 'model', at: 't' },
    );
    rec.setField('total_audited', 3, { source: 'model', at: 't' });
    expect(rec.fieldValues().prs).toHaveLength(3);
    const result = rec.finish('done');
    expect(result.extracted.prs!.value).toEqual([
      { number: 1, title: 'a' },
      { number: 2, title: 'b', ci_status: 'passed' },
      { number: 3, title: 'c' },
    ]);
    expect(result.extracted.total_audited!.value).toBe(3);
    expect(read('result.json').extracted.prs.value).toHaveLength(3);
    expect(read('checkpoint.json')).toMatchObject({ status: 'done', accumulated_data: { total_audited: 3 } });
  });

  test('saved data alone becomes fields with checkpoint provenance', () => {
    const { rec } = recorder();
    rec.saveProgress({ prs: [{ number: 9 }] }, undefined, 2);
    const result = rec.finish('partial_success', 'expected 5 items, got 1');
    expect(result.extracted.prs).toMatchObject({ value: [{ number: 9 }], provenance: { source: 'checkpoint' } });
  });
});
