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
    maskStep(step, masker);
    maskSteps(step.steps, masker);
  }
}

/**
 * One step as a reporter sees it when it begins or ends: its title, the call's parameters Playwright keeps beside it
 * (what the blob report copies), its error.
 */
export function maskStep(step: TestStep, masker: SecretMasker): void {
  if (masker.isEmpty) return;
  (step as { title: string }).title = masker.text(step.title);
  const withParams = step as { params?: Record<string, unknown> };
  if (withParams.params) withParams.params = masker.value(withParams.params);
  maskError(step.error, masker);
}

const isText = (contentType: string) => contentType.startsWith('text/');

/** A text attachment held in memory (`testInfo.attach(name, { body })`), masked in place; whether it held a secret. */
function maskBody(attachment: TestResult['attachments'][number], masker: SecretMasker): boolean {
  if (!attachment.body || !isText(attachment.contentType)) return false;
  const text = attachment.body.toString('utf8');
  const masked = masker.text(text);
  if (masked === text) return false;
  (attachment as { body?: Buffer }).body = Buffer.from(masked, 'utf8');
  return true;
}

/** Attachments already masked in this process: a step's end masks the ones attached so far, each once. */
const maskedBodies = new WeakSet<object>();

/** The test's attachments so far, as a step ends: a blob report copies each one then, before the test ends. */
export function maskNewAttachments(testResult: TestResult, masker: SecretMasker): void {
  if (masker.isEmpty) return;
  for (const attachment of testResult.attachments) {
    if (maskedBodies.has(attachment)) continue;
    maskedBodies.add(attachment);
    maskBody(attachment, masker);
  }
}

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
    if (maskBody(attachment, masker)) touched.push(attachment.name);
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
