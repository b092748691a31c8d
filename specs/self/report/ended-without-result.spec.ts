import { expect, test } from '@playwright/test';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { BWA_PROJECTS } from '../../../agent/project/names';
import BwaReporter from '../../../agent/report/reporter';
import { printedBy } from '../helpers/cli';
import { withEnv } from '../helpers/env';
import { resultOf } from '../helpers/results';
import { tempDir } from '../helpers/temp';

/** A generated sample test as the reporter sees it: in bwa's project, titled `<task> › <sample>`. */
const sampleTest = (sample: string) =>
  ({
    id: `test-${sample}`,
    titlePath: () => ['', BWA_PROJECTS.tasks, 'tasks.spec.ts', 'demo', sample],
    parent: { project: () => ({ name: BWA_PROJECTS.tasks }) },
  }) as unknown as TestCase;

/** An attempt that ended before the sample wrote anything (its context could not open). */
const noResult = {
  status: 'failed',
  error: { message: 'Error: Error reading storage state from state.json:\n  ENOENT' },
  attachments: [],
  annotations: [],
};
const withResult = (sample: string) => ({
  status: 'passed',
  attachments: [{ name: 'bwa-result', contentType: 'application/json', body: Buffer.from(JSON.stringify(resultOf({ sample_id: sample }))) }],
  annotations: [],
});

test('a test that ends before writing a result is listed once however often it is retried, and not at all once a retry writes one', async () => {
  const printed = await withEnv({ AGENT_REPORTS_DIR: tempDir('bwa-no-result-'), AGENT_RUN_ID: 'r' }, () =>
    printedBy(() => {
      const reporter = new BwaReporter();
      // "a": every attempt failed before writing; "b": the first did, its retry wrote a result.
      for (const [sample, attempt] of [
        ['a', noResult],
        ['b', noResult],
        ['a', noResult],
        ['b', withResult('b')],
        ['a', noResult],
      ] as const)
        reporter.onTestEnd(sampleTest(sample), attempt as unknown as TestResult);
      reporter.onEnd({ status: 'failed' } as never);
    }),
  );
  expect(printed.stdout).toContain('bwa run r: 1 sample — 1 done');
  expect(printed.stdout).toContain('  1 test(s) ended before writing a result:\n  ✗ demo › a: Error: Error reading storage state from state.json:');
  expect(printed.stdout).not.toContain('demo › b:');
});
