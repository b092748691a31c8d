import type { FullResult, Suite, TestCase } from '@playwright/test/reporter';
// @ts-expect-error: an exported subpath of the playwright package that ships without type declarations.
import { html } from 'playwright/lib/runner';
import { RESUMED_ANNOTATION } from './collect';
import { STATUS_ANNOTATION } from './status';

// Playwright's own HTML reporter (the `html` entry of its reporter table), extended rather than re-implemented.
const PlaywrightHtmlReporter = html.default as unknown as new (options: Record<string, unknown>) => {
  onBegin(suite: Suite): void;
  onEnd(result: FullResult): Promise<void>;
};

/**
 * The Playwright HTML report, with two changes for evidence runs:
 * - it keeps the last report when this invocation ran nothing (`--list`, "No tests found"): Playwright's own
 *   reporter clears its folder first, so a stray `--list` would lose the report of the last real run;
 * - a sample that passed as needs_review or partial_success carries that status as a label in the report's list
 *   (a passed test shows a green tick; the label is what tells it apart from done), and a resumed one @resumed.
 */
export default class BwaHtmlReporter extends PlaywrightHtmlReporter {
  private readonly mode: unknown;
  private tests: TestCase[] = [];

  constructor(options: Record<string, unknown>) {
    super(options);
    this.mode = options._mode;
  }

  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    this.tests = suite.allTests();
  }

  override async onEnd(result: FullResult): Promise<void> {
    if (this.mode === 'list' || !this.tests.some(test => test.results.length > 0)) return;
    for (const test of this.tests) {
      const annotations = test.results.at(-1)?.annotations ?? [];
      const status = annotations.find(a => a.type === STATUS_ANNOTATION)?.description;
      if (status && status !== 'done') addTag(test, `@${status}`);
      if (annotations.some(a => a.type === RESUMED_ANNOTATION)) addTag(test, '@resumed');
    }
    await super.onEnd(result);
  }
}

/** Tags are fixed when a test is declared; the report reads them from the test object, so the label goes there. */
function addTag(test: TestCase, tag: string): void {
  const own = test as unknown as { tags: string[]; _tags?: string[] };
  // In a run the tags are a getter over _tags; under merge-reports they are a plain array.
  const list = Array.isArray(own._tags) ? own._tags : Object.getOwnPropertyDescriptor(own, 'tags') ? own.tags : undefined;
  if (list && !list.includes(tag)) list.push(tag);
}
