import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { reporterNames, reporterWarning, unmaskedReporting } from '../../../agent/setup/reporter-check';
import { PEOPLESEARCH_ENV } from '../../../fixtures/sites/peoplesearch/credentials';
import { PROJECT_ROOT, runNested } from '../helpers/nested-run';
import { tempDir } from '../helpers/temp';

/** The names an installed package gives (the checkout's are its files). */
const INSTALLED = { bwa: 'bwa/reporter', mask: 'bwa/mask-reporter' };

test("a --reporter that leaves out bwa's reporter is said before a sample runs, with the list that keeps it; blob is the shards' way", () => {
  expect(reporterWarning([['list', undefined]], true, INSTALLED)).toBe(
    "bwa: ⚠ the reporters of this run (list) leave out bwa's: no manifest.json, combined.csv or index.html will be written, and bwa verify will fail — add it to a --reporter list, e.g. --reporter=list,bwa/reporter",
  );
  expect(reporterWarning([['blob', undefined]], true)).toContain('written when `npx playwright merge-reports` runs with bwa');
  expect(
    reporterWarning(
      [
        ['list', undefined],
        ['/p/node_modules/bwa/dist/agent/report/reporter.js', undefined],
      ],
      true,
    ),
  ).toBeUndefined();
  expect(
    reporterWarning(
      [
        ['dot', undefined],
        ['bwa/reporter', undefined],
      ],
      true,
    ),
  ).toBeUndefined();
  // A run of the team's own tests only has nothing of bwa's to lose.
  expect(reporterWarning([['list', undefined]], false)).toBeUndefined();
});

test("a run whose samples type a secret stops when its first reporter would read them before bwa's masking, with the list that masks", () => {
  expect(unmaskedReporting([['blob', undefined]], true, INSTALLED)).toBe(
    "bwa: the reporters of this run (blob) would read each sample before bwa masks the secrets it types (in traces, errors, step titles and output): put bwa's masking reporter first — --reporter=bwa/mask-reporter,blob — or leave out --reporter to keep your config's list, where withBwa puts it first",
  );
  expect(unmaskedReporting([['list', undefined]], true, INSTALLED)).toContain('--reporter=bwa/mask-reporter,list,bwa/reporter —');
  // The masking reporter after another is too late: the other has read the sample by then.
  expect(
    unmaskedReporting(
      [
        ['blob', undefined],
        ['bwa/mask-reporter', undefined],
      ],
      true,
      INSTALLED,
    ),
  ).toContain('--reporter=bwa/mask-reporter,blob —');
  // withBwa's list, the export named first, and bwa's own reporter first (it masks too) all mask before any other reads.
  for (const first of ['/p/node_modules/bwa/dist/agent/report/mask-reporter.js', 'bwa/mask-reporter', 'bwa/reporter'])
    expect(
      unmaskedReporting(
        [
          [first, undefined],
          ['blob', undefined],
        ],
        true,
      ),
    ).toBeUndefined();
  // Samples that type no secret (or none that is set) have nothing to mask.
  expect(unmaskedReporting([['blob', undefined]], false)).toBeUndefined();
});

test('--reporter=blob over samples that sign in with a secret stops in globalSetup, before any server, sign-in or sample', async () => {
  const reports = tempDir('bwa-unmasked-');
  const run = await runNested({
    args: ['--project=bwa', '--no-deps', '--grep', '@people_enrichment', '--reporter=blob'],
    env: { ...PEOPLESEARCH_ENV, AGENT_REPORTS_DIR: reports },
  });
  expect(run.code, run.output).toBe(2);
  expect(run.output).toContain('bwa: the reporters of this run (blob) would read each sample before bwa masks the secrets it types');
  expect(run.output).not.toMatch(/signed in|passed|failed/);
});

test("in bwa's own checkout the fix names the reporters' files, which load without a build, relative to the config's folder", () => {
  expect(reporterNames(PROJECT_ROOT)).toEqual({ bwa: './agent/report/reporter.ts', mask: './agent/report/mask-reporter.ts' });
  for (const file of Object.values(reporterNames(PROJECT_ROOT))) expect(fs.existsSync(path.join(PROJECT_ROOT, file)), file).toBe(true);
  expect(reporterNames(path.join(PROJECT_ROOT, 'docs')).mask).toBe('../agent/report/mask-reporter.ts');
  expect(unmaskedReporting([['blob', undefined]], true, reporterNames(PROJECT_ROOT))).toContain('--reporter=./agent/report/mask-reporter.ts,blob —');
});
