import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ActionResult } from '../../../agent/actions/core/types';
import type { Provenance } from '../../../agent/evidence/result-schema';
import { EvidenceStore } from '../../../agent/evidence/store';
import { applyEffects } from '../../../agent/loop/effects';
import { SampleRecorder } from '../../../agent/loop/recorder';
import { bundledTask, sampleOf } from '../helpers/agent-env';
import { tempDir } from '../helpers/temp';
import { SITE } from '../helpers/sites';

/** No value dropped, checks out of the output, derived values with their sources: the loop's record of what was read and said. */

const OUTPUT = { headline: 'string', published: 'string | null', touches_tests: 'boolean', path_count: 'number' };

function setup(overrides: Record<string, unknown> = {}) {
  const dir = tempDir('bwa-values-');
  const loaded = bundledTask('pr_audit_chain', {
    output_schema: OUTPUT,
    required_fields: [],
    required_artifacts: [],
    judgment_required: false,
    expected_items: null,
    ...overrides,
  });
  const recorder = new SampleRecorder({
    task: loaded,
    sample: sampleOf({ sample_id: 's1', owner: 'acme', repo: 'anvil' }),
    runId: 'r1',
    attempt: 0,
    decider: 'model',
    store: new EvidenceStore(dir),
  });
  let step = 1;
  const ctx = (canBounce = false) => ({ task: loaded.spec, recorder, step: step++, url: `${SITE.widgets}/a`, canBounce });
  const read = (field: string, value: unknown, provenance: Partial<Provenance> = {}): ActionResult => {
    const at = new Date().toISOString();
    recorder.record({
      step,
      timestamp: at,
      decider: 'model',
      action: { name: 'extract', args: { field, target: 'e1' } },
      outcome: { success: true, description: `${field} = ${JSON.stringify(value)}` },
      duration_ms: 1,
    });
    return {
      success: true,
      description: '',
      effects: { extracted: { field, value, provenance: { source: 'dom', locator: 'css=.byline', step, at, ...provenance } } },
    };
  };
  const done = (
    extracted: Record<string, unknown>,
    more: { note?: string; derived?: Record<string, { value: unknown; from: string[]; rule: string }> } = {},
  ): ActionResult => ({
    success: true,
    description: 'Marked done',
    effects: { terminal: { kind: 'done', extracted, ...more } },
  });
  const file = (name: string) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
  return { recorder, ctx, read, done, file };
}

test('a value the model states where the read found nothing is kept as stated, with its note; the read that found nothing is named', () => {
  const { recorder, ctx, read, done } = setup();
  applyEffects(read('published', null), ctx());
  const outcome = applyEffects(done({ published: '2015-04-30' }, { note: 'the date reads "30 avril 2015" in the byline' }), ctx()).outcome;
  expect(outcome?.status).toBe('done');
  const result = recorder.finish('done');
  expect(result.extracted.published).toMatchObject({
    value: '2015-04-30',
    provenance: {
      source: 'stated',
      note: 'the date reads "30 avril 2015" in the byline',
      unread: expect.stringMatching(/^css=\.byline at step \d+$/),
    },
  });
  expect(result.notes.join('\n')).toMatch(
    /published: the read found nothing \(css=\.byline at step \d+\); kept the value the model stated, "2015-04-30"/,
  );
});

test('a read that finds nothing never erases a value already there; a read value still stands over what the model says', () => {
  const { recorder, ctx, read, done } = setup();
  applyEffects(read('headline', 'Storm closes the pass'), ctx());
  applyEffects(read('headline', null), ctx());
  applyEffects(done({ headline: 'Something else', published: '2022-02-10' }), ctx());
  applyEffects(read('published', null), ctx());
  const result = recorder.finish('done');
  expect(result.extracted.headline!.value).toBe('Storm closes the pass');
  expect(result.extracted.headline!.provenance.source).toBe('dom');
  expect(result.extracted.published).toMatchObject({ value: '2022-02-10', provenance: { source: 'model' } });
  const notes = result.notes.join('\n');
  expect(notes).toContain('headline: a later read found nothing (css=.byline at step');
  expect(notes).toContain('headline: kept the value read from the page ("Storm closes the pass"); the model reported "Something else"');
});

test('read_values: a value only stated sends the sample back once, then to review', () => {
  const { ctx, done } = setup({ read_values: true });
  const first = applyEffects(done({ headline: 'Storm closes the pass' }), ctx(true));
  expect(first.outcome).toBeUndefined();
  expect(first.notices.join(' ')).toContain('values stated but not read from the page (the task asks for read values): headline');
  const second = applyEffects(done({ headline: 'Storm closes the pass' }), ctx(true));
  expect(second.outcome).toMatchObject({ status: 'needs_review', error: expect.stringContaining('headline (confirmed by a second done)') });
});

test('an extract into a field outside the output schema is a check: in the action log, never in the output', () => {
  const { recorder, ctx, read, done, file } = setup();
  applyEffects(read('changed_paths', ['src/a.ts', 'test/a.spec.ts']), ctx());
  applyEffects(done({ headline: 'x' }), ctx());
  const result = recorder.finish('done');
  expect(Object.keys(result.extracted)).not.toContain('changed_paths');
  expect(file('checkpoint.json').accumulated_data).not.toHaveProperty('changed_paths');
  const logged = (file('action_log.json') as Array<{ action: { args: { field?: string } }; check?: boolean }>).find(
    e => e.action.args.field === 'changed_paths',
  );
  expect(logged?.check).toBe(true);
});

test('a derived value records its rule and its sources as they stood; one citing an unread field is sent back', () => {
  const { recorder, ctx, read, done } = setup();
  applyEffects(read('changed_paths', ['src/a.ts', 'test/a.spec.ts']), ctx());
  const bounced = applyEffects(
    done({ headline: 'x' }, { derived: { path_count: { value: 2, from: ['changed_path'], rule: 'count of changed paths' } } }),
    ctx(true),
  );
  expect(bounced.notices.join(' ')).toContain('path_count is derived from "changed_path", which no extract read');
  const outcome = applyEffects(
    done(
      { headline: 'x' },
      {
        derived: {
          touches_tests: { value: true, from: ['changed_paths'], rule: 'any changed path starts with test/' },
          path_count: { value: 2, from: ['changed_paths'], rule: 'count of changed paths' },
        },
      },
    ),
    ctx(true),
  ).outcome;
  expect(outcome?.status).toBe('done');
  const result = recorder.finish('done');
  expect(result.extracted.touches_tests).toMatchObject({
    value: true,
    provenance: {
      source: 'derived',
      rule: 'any changed path starts with test/',
      sources: [{ field: 'changed_paths', value: ['src/a.ts', 'test/a.spec.ts'], source: 'dom' }],
    },
  });
});

test('the model is told when its reads of a field disagree, and the done that follows ends in review naming both reads', () => {
  const { recorder, ctx, read, done } = setup();
  expect(applyEffects(read('published', '2016-06-02'), ctx()).notices).toEqual([]);
  const notices = applyEffects(read('published', '2016-05-30', { source: 'meta', locator: undefined, key: 'article:published_time' }), ctx()).notices;
  expect(notices).toHaveLength(1);
  expect(notices[0]).toMatch(
    /^published: the reads disagree — "2016-06-02" \(dom css=\.byline, step \d+\) ≠ "2016-05-30" \(meta article:published_time, step \d+\); kept the first, "2016-06-02", for a person to decide\. Every read is recorded and the sample goes to a person for review/,
  );
  expect(recorder.fields.published!.reads).toHaveLength(2);
  expect(applyEffects(done({}), ctx()).outcome).toEqual({ status: 'done', error: null });
  // The session turns that done into review (agent/loop/disagreements.ts): the reads stay in the record.
  expect(recorder.disagreements()).toEqual([recorder.fields.published!.disagreement!.note]);
});
