import type { Reporter, TestCase, TestResult, TestStep } from '@playwright/test/reporter';
import { secretsFromEnv } from '../env/read';
import { SecretMasker } from '../secrets/masker';
import { maskNewAttachments, maskStep, maskTestResult } from './mask-test-result';

/**
 * First in the reporter list (withBwa puts it there): masks each finished test — its traces, text attachments,
 * errors, step titles and output — before any reporter of the project (junit, blob, Allure, its own) reads or copies
 * it, and each step as it begins and ends, since a blob report copies a step's title and parameters as it begins and
 * the attachments so far as it ends. Prints nothing. bwa's own reporter masks too, for `merge-reports` runs where it
 * is the only one.
 */
export default class MaskReporter implements Reporter {
  private readonly masker = SecretMasker.of(secretsFromEnv());

  printsToStdio(): boolean {
    return false;
  }

  onStepBegin(_test: TestCase, _result: TestResult, step: TestStep): void {
    maskStep(step, this.masker);
  }

  onStepEnd(_test: TestCase, testResult: TestResult, step: TestStep): void {
    maskStep(step, this.masker);
    maskNewAttachments(testResult, this.masker);
  }

  onTestEnd(_test: TestCase, testResult: TestResult): void {
    maskTestResult(testResult, this.masker);
  }
}
