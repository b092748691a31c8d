import { expect, test } from '@playwright/test';
import { reporterWarning } from '../../../agent/setup/reporter-check';

test("a --reporter that leaves out bwa's reporter is said before a sample runs, with the list that keeps it; blob is the shards' way", () => {
  expect(reporterWarning([['list', undefined]], true)).toBe(
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
