import type { TestError, TestResult, TestStep } from '@playwright/test/reporter';
import * as fs from 'node:fs';
import { writeFileAtomic } from '../fs/atomic';
import type { SecretMasker } from '../secrets/masker';
import { redactTrace } from './trace-redaction';
import { traceAttachments } from './traces';

function maskError(error: TestError | undefined, masker: SecretMasker): void {
  if (!error) return;
  for (const key of ['message', 'stack', 'snippet', 'value'] as const) {
    const text = error[key];
    if (typeof text === 'string') error[key] = masker.text(text);
  }
  maskError(error.cause, masker);
}

function maskSteps(steps: readonly TestStep[], masker: SecretMasker): void {
  for (const step of steps) {
    (step as { title: string }).title = masker.text(step.title);
    maskError(step.error, masker);
    maskSteps(step.steps, masker);
  }
}

const isText = (contentType: string) => contentType.startsWith('text/');

function maskTextFile(file: string, masker: SecretMasker): boolean {
  if (!fs.existsSync(file)) return false;
  const text = fs.readFileSync(file, 'utf8');
  const masked = masker.text(text);
  if (masked === text) return false;
  writeFileAtomic(file, masked);
  return true;
}

/** Results already masked in this process (the masking reporter first, bwa's reporter again): done once. */
const masked = new WeakSet<TestResult>();

/**
 * Playwright's own record of a test, masked before any other reporter copies it: its traces, its text attachments
 * (error-context.md holds the page's snapshot at the failure, a page that echoed a secret included), its errors, step
 * titles and output. bwa's JSON records are masked by structure when written and are left alone here. Returns what
 * held a secret (trace entries, attachment names).
 */
export function maskTestResult(testResult: TestResult, masker: SecretMasker): string[] {
  if (masker.isEmpty || masked.has(testResult)) return [];
  masked.add(testResult);
  const touched = traceAttachments(testResult).flatMap(trace => redactTrace(trace, masker).map(entry => `trace ${entry}`));
  for (const attachment of testResult.attachments) {
    if (!isText(attachment.contentType)) continue;
    if (attachment.path && maskTextFile(attachment.path, masker)) touched.push(attachment.name);
    if (attachment.body) {
      const text = attachment.body.toString('utf8');
      const masked = masker.text(text);
      if (masked !== text) {
        (attachment as { body?: Buffer }).body = Buffer.from(masked, 'utf8');
        touched.push(attachment.name);
      }
    }
  }
  for (const error of testResult.errors) maskError(error, masker);
  maskError(testResult.error, masker);
  maskSteps(testResult.steps, masker);
  for (const output of [testResult.stdout, testResult.stderr])
    output.forEach((chunk, i) => {
      output[i] = masker.text(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    });
  return touched;
}
