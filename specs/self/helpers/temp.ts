import { test } from '@playwright/test';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SITE, SITE_HOST } from './sites';

/**
 * A new empty folder. Inside a test, it is in the test's own output folder (testInfo.outputPath), so what a test
 * leaves is found beside its report and cleared with the next run; outside one (a module's top, a worker hook), in
 * the system's temp folder.
 */
export function tempDir(prefix = 'bwa-'): string {
  const base = currentTestOutput() ?? os.tmpdir();
  fs.mkdirSync(base, { recursive: true });
  return fs.mkdtempSync(path.join(base, prefix));
}

function currentTestOutput(): string | undefined {
  try {
    return test.info().outputPath();
  } catch {
    // Not inside a test.
    return undefined;
  }
}

export function writeFiles(root: string, files: Record<string, string | Buffer>): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(root, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

/** A minimal valid task spec; tests override what they exercise. */
export function taskJson(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    task_id: 'demo',
    start_url: `${SITE.people}/people/{{username}}`,
    system_prompt: 'Collect the fields.',
    goal: 'Extract the name.',
    output_schema: { name: 'string' },
    input_schema: { username: 'string' },
    allowed_domains: [SITE_HOST.people],
    ...overrides,
  };
}
