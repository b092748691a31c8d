import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sha256 } from '../../../agent/evidence/hash';
import { emptyUsage, Result } from '../../../agent/evidence/result-schema';
import { addUsage, callUsage, describeUsage } from '../../../agent/evidence/usage';
import { combinedCsv } from '../../../agent/report/csv';
import { sampleLine } from '../../../agent/report/reporter';
import { verifyRun } from '../../../agent/report/verify-run';
import { runUsage, writeRun, type Manifest } from '../../../agent/report/write-run';
import { readFromPage, resultOf } from '../helpers/results';
import { tempDir } from '../helpers/temp';

function result(sampleId: string, extracted: Record<string, unknown>, overrides: Partial<Result> = {}): Result {
  return resultOf({
    run_id: 'r1',
    sample_id: sampleId,
    output_fields: ['name', 'followers', 'pinned', 'note'],
    extracted: readFromPage(extracted),
    ...overrides,
  });
}

test('combined.csv: sorted by sample_id, a column per output field, non-scalars JSON-encoded, quoting by csv-stringify', () => {
  const csv = combinedCsv([
    result('b', { name: 'Bob, "the builder"', followers: 0, pinned: ['x', 'y'], note: 'line1\nline2' }),
    result('a', { name: 'Ann', followers: 12, pinned: null }, { status: 'partial_success', error: 'expected 5 items, got 3' }),
  ]);
  const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
  expect(Object.keys(rows[0]!)).toEqual(['sample_id', 'status', 'name', 'followers', 'pinned', 'note', 'steps', 'artifacts', 'error']);
  expect(rows.map(r => r.sample_id)).toEqual(['a', 'b']);
  expect(rows[1]).toMatchObject({ name: 'Bob, "the builder"', followers: '0', pinned: '["x","y"]', note: 'line1\nline2', status: 'done' });
  expect(rows[0]).toMatchObject({ pinned: '', note: '', status: 'partial_success', error: 'expected 5 items, got 3' });
});

test('combined.csv: text starting with =, +, -, @, a tab or a carriage return gets a leading quote; numbers, negative ones too, are written as numbers', () => {
  const csv = combinedCsv([
    result('a', { name: '\tcmd', followers: -3.5, pinned: ['=x'], note: '\r=1+1' }),
    result('b', { name: '-2+3', followers: 0, note: 'plain - text' }, { error: '=ERROR("x")' }),
  ]);
  const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
  expect(rows[0]).toMatchObject({ name: "'\tcmd", followers: '-3.5', pinned: '["=x"]', note: "'\r=1+1" });
  expect(rows[1]).toMatchObject({ name: "'-2+3", followers: '0', note: 'plain - text', error: `'=ERROR("x")` });
});

test('a judgment column appears when any sample has a judgment', () => {
  const csv = combinedCsv([result('a', {}, { judgment: { answer: 'yes', confidence: 0.8 } }), result('b', {})]);
  const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
  expect(rows[0]!.judgment).toBe('{"answer":"yes","confidence":0.8}');
  expect(rows[1]!.judgment).toBe('');
});

test('writeRun lays out results, copies evidence from attachment paths, and lists every hash', () => {
  const source = tempDir();
  const png = Buffer.from('fake png bytes');
  fs.writeFileSync(path.join(source, 'resource-1.png'), png);
  fs.writeFileSync(path.join(source, 'log.json'), '[]');
  const artifact = {
    filename: '01_profile.png',
    sha256: sha256(png),
    bytes: png.length,
    kind: 'screenshot' as const,
    source_url: 'http://x',
    timestamp: 't',
  };
  const runDir = tempDir();
  const manifest = writeRun(runDir, 'r1', [
    {
      result: result('a', { name: 'Ann' }, { artifacts: [artifact] }),
      files: new Map([
        ['01_profile.png', path.join(source, 'resource-1.png')],
        ['action_log.json', path.join(source, 'log.json')],
      ]),
      resumed: false,
    },
    { result: result('b', { name: 'Bob' }, { status: 'failed', error: 'boom' }), files: new Map(), resumed: true },
  ]);
  expect(fs.readFileSync(path.join(runDir, 'demo/a/01_profile.png'))).toEqual(png);
  expect(fs.existsSync(path.join(runDir, 'demo/a/action_log.json'))).toBe(true);
  expect(JSON.parse(fs.readFileSync(path.join(runDir, 'demo/b/result.json'), 'utf8')).status).toBe('failed');
  expect(manifest.artifacts).toEqual([
    { path: 'demo/a/01_profile.png', sha256: artifact.sha256, bytes: png.length, task_id: 'demo', sample_id: 'a' },
  ]);
  expect(manifest.counts).toEqual({ done: 1, partial_success: 0, needs_review: 0, failed: 1, total: 2, resumed: 1 });
  expect(manifest.problems).toEqual([]);
  const onDisk = JSON.parse(fs.readFileSync(path.join(runDir, 'manifest.json'), 'utf8')) as Manifest;
  expect(onDisk.samples.map(s => s.result)).toEqual(['demo/a/result.json', 'demo/b/result.json']);
  expect(onDisk.samples[0]!.result_sha256).toBe(sha256(fs.readFileSync(path.join(runDir, 'demo/a/result.json'))));
  expect(fs.readFileSync(path.join(runDir, 'demo/combined.csv'), 'utf8').split('\n')[0]).toBe(
    'sample_id,status,name,followers,pinned,note,steps,artifacts,error',
  );
});

test('writeRun reports evidence whose bytes no longer match the recorded hash', () => {
  const source = tempDir();
  fs.writeFileSync(path.join(source, 'x.png'), 'tampered');
  const artifact = { filename: '01_x.png', sha256: sha256('original'), bytes: 8, kind: 'screenshot' as const, source_url: 'u', timestamp: 't' };
  const manifest = writeRun(tempDir(), 'r1', [
    { result: result('a', {}, { artifacts: [artifact] }), files: new Map([['01_x.png', path.join(source, 'x.png')]]), resumed: false },
  ]);
  expect(manifest.problems).toEqual(['demo/a/01_x.png: sha256 differs from the hash recorded when it was written']);
});

test('the printed line shows status and key fields', () => {
  expect(sampleLine(result('ada', { name: 'Ada Lovelace', followers: 1234 }), false)).toBe('  ✓ demo/ada done name=Ada Lovelace followers=1234');
  expect(sampleLine(result('x', {}, { status: 'failed', error: 'HTTP 500 at http://x' }), true)).toBe(
    '  ✗ demo/x failed (resumed) — HTTP 500 at http://x',
  );
});

test('run usage: the samples summed by purpose, a batch judge call counted once, and an older result without by_purpose read as it is', () => {
  const decide = callUsage('decide', { input_tokens: 100, cache_creation_input_tokens: 1000, cache_read_input_tokens: 0, output_tokens: 20 });
  const cached = callUsage('decide', { input_tokens: 120, cache_creation_input_tokens: 0, cache_read_input_tokens: 1000, output_tokens: 20 });
  const vision = callUsage('vision', { input_tokens: 1900, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 40 });
  const first = emptyUsage();
  for (const u of [decide, cached, vision]) addUsage(first, u);
  const batch = {
    id: 'r1/demo/judge-1',
    size: 2,
    model: 'm',
    at: 't',
    usage: callUsage('judge', { input_tokens: 500, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 50 }),
  };
  const older = { model_calls: 2, input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };
  expect(Result.parse(result('c', {}, { usage: older })).usage).toEqual(older);
  const total = runUsage([
    result('a', {}, { usage: first, judgment_batch: batch }),
    result('b', {}, { usage: emptyUsage(), judgment_batch: batch }),
    result('c', {}, { usage: older }),
  ]);
  expect(total).toMatchObject({
    model_calls: 6,
    input_tokens: 2630,
    cache_creation_input_tokens: 1000,
    cache_read_input_tokens: 1000,
    output_tokens: 135,
  });
  expect(total.by_purpose).toEqual({
    decide: { calls: 2, input_tokens: 220, cache_creation_input_tokens: 1000, cache_read_input_tokens: 1000, output_tokens: 40 },
    vision: { calls: 1, input_tokens: 1900, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 40 },
    judge: { calls: 1, input_tokens: 500, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 50 },
  });
  expect(describeUsage(total)).toBe(
    '6 model calls (decide 2, vision 1, judge 1); input 4,630 tokens (uncached 2,630 · cache write 1,000 · cache read 1,000); output 135',
  );
});

test('a resumed sample whose files were edited between invocations keeps the earlier hashes: the run names each file and verify fails on it', () => {
  const runDir = tempDir();
  const folder = path.join(runDir, 'demo', 'a');
  fs.mkdirSync(folder, { recursive: true });
  const files = { 'action_log.json': '[{"step":1}]\n', 'checkpoint.json': '{"status":"done"}\n', 'trace.zip': 'zip bytes' };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(folder, name), text);
  const sample = (resumed: boolean, extracted: Record<string, unknown>) => {
    const r = result('a', extracted);
    fs.writeFileSync(path.join(folder, 'result.json'), JSON.stringify(r, null, 2) + '\n');
    return {
      result: r,
      files: new Map(Object.keys(files).map(name => [name, path.join(folder, name)])),
      resumed,
      resultSha256: sha256(fs.readFileSync(path.join(folder, 'result.json'))),
    };
  };
  const first = writeRun(runDir, 'r1', [sample(false, { name: 'Ann' })]);
  expect(first.records.map(r => r.path)).toEqual(['demo/a/action_log.json', 'demo/a/checkpoint.json', 'demo/a/trace.zip']);
  expect(verifyRun(runDir).problems).toEqual([]);

  // Edited while no run was looking; the next invocation resumes the sample (it is done) and lays the run out again.
  fs.writeFileSync(path.join(folder, 'action_log.json'), '[{"step":1,"forged":true}]\n');
  fs.rmSync(path.join(folder, 'checkpoint.json'));
  const second = writeRun(runDir, 'r1', [sample(true, { name: 'Anne' })]);
  expect(second.problems).toEqual([
    'demo/a/result.json: changed since an earlier invocation of the run hashed it (sha256 ' +
      first.samples[0]!.result_sha256.slice(0, 12) +
      '…) — the manifest keeps that hash',
    'demo/a/action_log.json: changed since an earlier invocation of the run hashed it (sha256 ' +
      first.records[0]!.sha256.slice(0, 12) +
      '…) — the manifest keeps that hash',
    'demo/a/checkpoint.json: gone since an earlier invocation of the run hashed it — the manifest keeps it',
  ]);
  expect(second.records).toEqual(first.records);
  expect(second.samples[0]!.result_sha256).toBe(first.samples[0]!.result_sha256);
  const problems = verifyRun(runDir).problems;
  expect(problems).toHaveLength(3);
  expect(problems).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/^demo\/a\/action_log\.json: sha256 \w+ differs from manifest\.json/),
      'demo/a/checkpoint.json: missing (listed in manifest.json)',
      expect.stringMatching(/^demo\/a\/result\.json: sha256 differs from manifest\.json/),
    ]),
  );
  // What the batch judge rewrites in an invocation (result and action log) is new, not an edit.
  const judged = writeRun(runDir, 'r1', [{ ...sample(true, { name: 'Ann' }), judged: true }]);
  expect(judged.problems).toEqual(['demo/a/checkpoint.json: gone since an earlier invocation of the run hashed it — the manifest keeps it']);
  // A sample run again since (an invocation killed before its report) finished anew: its files are new, not edits.
  const again = writeRun(runDir, 'r1', [
    { ...sample(true, { name: 'Ann' }), result: result('a', { name: 'Ann' }, { finished_at: '2026-01-02T00:00:00.000Z' }) },
  ]);
  expect(again.problems).toEqual([]);
  expect(verifyRun(runDir).problems).toEqual([]);
});
