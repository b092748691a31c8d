import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { secretsFromEnv } from '../env/read';
import { SecretMasker } from '../secrets/masker';
import { maskTestResult } from './mask-test-result';

/**
 * First in the reporter list (withBwa puts it there): masks each finished test — its traces, text attachments,
 * errors, step titles and output — before any reporter of the project (junit, blob, Allure, its own) reads or copies
 * it. Prints nothing. bwa's own reporter masks too, for `merge-reports` runs where it is the only one.
 */
export default class MaskReporter implements Reporter {
  private readonly masker = SecretMasker.of(secretsFromEnv());

  printsToStdio(): boolean {
    return false;
  }

  onTestEnd(_test: TestCase, testResult: TestResult): void {
    maskTestResult(testResult, this.masker);
  }
}
