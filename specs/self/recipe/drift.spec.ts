import { expect, test } from '@playwright/test';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Result } from '../../../agent/evidence/result-schema';
import { detectDrift } from '../../../agent/recipe/drift';
import BwaReporter from '../../../agent/report/reporter';
import { tempDir } from '../helpers/temp';
import { printedBy } from '../helpers/cli';
import { readFromPage, resultOf } from '../helpers/results';
import { withEnv } from '../helpers/env';

function sample(index: number, values: Record<string, unknown>): Result {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString();
  return resultOf({
    run_id: 'drift-run',
    task_id: 'people_profile',
    sample_id: `s${String(index).padStart(2, '0')}`,
    output_fields: ['display_name', 'company', 'followers'],
    extracted: readFromPage(values, at),
    started_at: at,
    finished_at: at,
  });
}

/** 10 samples: the first three have every field; later, company goes missing in 4 of 7 and followers turns into text in 2. */
function driftingRun(): Result[] {
  return Array.from({ length: 10 }, (_, i) =>
    sample(i, {
      display_name: `Person ${i}`,
      company: i >= 3 && i % 2 === 1 ? null : `Company ${i}`,
      followers: i === 8 || i === 9 ? `${i}k followers` : 100 + i,
    }),
  );
}

test('a field the first samples all had, empty for more than 20% of the rest, is drift; so is a changed format', () => {
  const findings = detectDrift(driftingRun());
  expect(findings.map(f => [f.field, f.kind, f.count, f.of])).toEqual([
    ['company', 'empty', 4, 7],
    ['followers', 'format', 2, 7],
  ]);
  expect(findings[1]!.expected).toBe('number');
  expect(findings[0]!.message).toBe('people_profile.company is empty in 4 of the 7 samples after the first 3, which all had it');
});

test('no drift: empties at most 20% or a single one, a field already missing in the first samples, too few samples to judge', () => {
  const steady = Array.from({ length: 8 }, (_, i) => sample(i, { display_name: `P${i}`, company: i === 5 ? null : 'Acme', followers: i }));
  expect(detectDrift(steady)).toEqual([]);
  const neverThere = Array.from({ length: 8 }, (_, i) =>
    sample(i, { display_name: `P${i}`, company: i === 1 || i > 4 ? null : 'Acme', followers: i }),
  );
  expect(detectDrift(neverThere)).toEqual([]);
  expect(detectDrift(driftingRun().slice(0, 5))).toEqual([]);
  // One empty of three later samples is over a fifth, but one profile without a company is data, not drift.
  const oneGap = Array.from({ length: 6 }, (_, i) => sample(i, { display_name: `P${i}`, company: i === 4 ? null : 'Acme', followers: i }));
  expect(detectDrift(oneGap)).toEqual([]);
});

test('the reporter prints drift in the run summary and records it in manifest.json', async () => {
  const reports = tempDir('bwa-drift-reports-');
  const { stdout } = await withEnv({ AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: 'drift-run' }, () =>
    printedBy(() => {
      const reporter = new BwaReporter();
      for (const result of driftingRun()) {
        const testResult = {
          attachments: [{ name: 'bwa-result', contentType: 'application/json', body: Buffer.from(JSON.stringify(result)) }],
          annotations: [],
        } as unknown as TestResult;
        reporter.onTestEnd({ titlePath: () => ['', result.sample_id] } as unknown as TestCase, testResult);
      }
      return reporter.onEnd({ status: 'passed' } as never);
    }),
  );
  const lines = stdout.split('\n');
  expect(lines).toContain('  ⚠ drift: people_profile.company is empty in 4 of the 7 samples after the first 3, which all had it');
  expect(lines).toContain('  ⚠ drift: people_profile.followers is not number in 2 of the 7 samples after the first 3');
  const manifest = JSON.parse(fs.readFileSync(path.join(reports, 'runs', 'drift-run', 'manifest.json'), 'utf8'));
  expect(manifest.counts.total).toBe(10);
  expect(manifest.drift.map((d: { field: string; kind: string }) => `${d.field}:${d.kind}`)).toEqual(['company:empty', 'followers:format']);
});
