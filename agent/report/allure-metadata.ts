import { test } from '@playwright/test';
import * as allure from 'allure-js-commons/sync';
import type { Result } from '../evidence/result-schema';
import type { SecretMasker } from '../secrets/masker';
import type { TaskSpec } from '../task/schema';
import type { Sample } from '../task/samples';

/** Allure label carrying the sample's outcome (done | partial_success | needs_review | failed). */
export const ALLURE_STATUS_LABEL = 'sample_status';
const MAX_LINKS = 20;

/**
 * Tells Allure what the test is about before it runs: the task as feature and suite, each input column as a
 * parameter. Uses the synchronous runtime API: each call is one attachment, no extra test step in the reports.
 */
export function describeSampleForAllure(task: TaskSpec, sample: Sample, masker: SecretMasker): void {
  if (!allureReports()) return;
  allure.labels({ name: 'feature', value: task.task_id }, { name: 'suite', value: task.task_id });
  const columns = Object.keys(task.input_schema).length ? Object.keys(task.input_schema) : Object.keys(sample.row).filter(c => c !== 'sample_id');
  for (const column of columns) {
    const value = sample.row[column];
    if (value !== undefined) allure.parameter(column, masker.text(value));
  }
}

/**
 * After the run: the sample's status as a label and every page the evidence came from as a link. A sample that
 * passed without being done also says so in its name and tags, which Allure shows in its list of tests.
 */
export function reportOutcomeToAllure(result: Result, masker: SecretMasker): void {
  if (!allureReports()) return;
  allure.labels({ name: ALLURE_STATUS_LABEL, value: result.status });
  if (result.status === 'needs_review' || result.status === 'partial_success') {
    allure.displayName(`${result.sample_id} [${result.status}]`);
    allure.tag(result.status);
  }
  const urls = sourceUrls(result).map(url => masker.text(url));
  if (urls.length) allure.links(...urls.map(url => ({ url, name: url })));
}

/**
 * Whether the run reports to Allure (allure-playwright among its reporters). Without it, Allure's runtime has no
 * reporter to send to and warns on every call, so nothing is sent.
 */
function allureReports(): boolean {
  return test.info().config.reporter.some(([name]) => name.includes('allure-playwright'));
}

/** Pages the sample's evidence was read from, in the order first used (artifacts, then extracted fields). */
export function sourceUrls(result: Result): string[] {
  const urls = new Set<string>();
  for (const artifact of result.artifacts) urls.add(artifact.source_url);
  for (const field of Object.values(result.extracted)) if (field.provenance.url) urls.add(field.provenance.url);
  return [...urls].filter(url => /^https?:\/\//i.test(url)).slice(0, MAX_LINKS);
}
