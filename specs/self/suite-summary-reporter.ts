import type { FullResult, Reporter, Suite, TestCase } from '@playwright/test/reporter';
import { SUMMARY_GROUPS } from './projects';

const OUTCOME_WORDS: Record<ReturnType<TestCase['outcome']>, string> = {
  expected: 'passed',
  unexpected: 'failed',
  flaky: 'flaky',
  skipped: 'skipped',
};

/** Counts of one project's tests by outcome, passed first: "340 passed, 2 failed". */
export function describeOutcomes(tests: readonly TestCase[]): string {
  const counts = new Map<string, number>(Object.values(OUTCOME_WORDS).map(word => [word, 0]));
  for (const test of tests) {
    const word = OUTCOME_WORDS[test.outcome()];
    counts.set(word, counts.get(word)! + 1);
  }
  return [...counts]
    .filter(([word, n]) => n > 0 || word === 'passed')
    .map(([word, n]) => `${n} ${word}`)
    .join(', ');
}

/** `npm test`'s last line: product tests and test-double tests counted apart. */
export default class SuiteSummaryReporter implements Reporter {
  private suite: Suite | undefined;

  onBegin(_config: unknown, suite: Suite): void {
    this.suite = suite;
  }

  onEnd(_result: FullResult): void {
    // Only tests that ran: `--list` runs none and prints no summary.
    const tests = (this.suite?.allTests() ?? []).filter(test => test.results.length > 0);
    const parts = SUMMARY_GROUPS.flatMap(group => {
      const mine = tests.filter(test => (group.projects as readonly string[]).includes(test.parent.project()?.name ?? ''));
      return mine.length ? [`${group.title}: ${describeOutcomes(mine)}`] : [];
    });
    if (parts.length) console.log(parts.join(' · '));
  }

  printsToStdio(): boolean {
    return true;
  }
}
