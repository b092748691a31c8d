import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sha256 } from '../../../agent/evidence/hash';
import type { Result } from '../../../agent/evidence/result-schema';
import { indexRun } from '../../../agent/report/evidence-index';
import { writeRun } from '../../../agent/report/write-run';
import { RESULT_AT as AT, resultOf } from '../helpers/results';
import { tempDir } from '../helpers/temp';

const HOSTILE = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">"'\`&amp;`;
// The smallest valid PNG (1×1), so the thumbnail really loads.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360f8cf000000030101' +
    '00c9fe92ef0000000049454e44ae426082',
  'hex',
);

function result(sampleId: string, status: Result['status'], overrides: Partial<Result> = {}): Result {
  return resultOf({
    run_id: 'idx',
    sample_id: sampleId,
    status,
    steps: 4,
    input: { sample_id: sampleId, query: HOSTILE },
    extracted: { title: { value: HOSTILE, provenance: { source: 'dom', url: 'javascript:alert(1)', at: AT } } },
    error: status === 'done' ? null : `the page said ${HOSTILE}`,
    ...overrides,
  });
}

test('the evidence index shows page-derived text as text: no markup, no script, no javascript: links', async ({ page }) => {
  const root = tempDir('bwa-index-');
  const source = path.join(root, 'worker');
  fs.mkdirSync(source);
  fs.writeFileSync(path.join(source, '01_page.png'), PNG);
  const shot = {
    filename: '01_page.png',
    sha256: sha256(PNG),
    bytes: PNG.length,
    kind: 'screenshot' as const,
    label: HOSTILE,
    source_url: 'javascript:alert(2)',
    timestamp: AT,
  };
  const samples = [
    { result: result('a1', 'done', { artifacts: [shot] }), files: new Map([['01_page.png', path.join(source, '01_page.png')]]), resumed: false },
    {
      result: result('b2', 'needs_review', {
        output_fields: ['title', 'author'],
        extracted: {
          title: { value: 'Read', provenance: { source: 'dom', url: 'https://example.com/', at: AT } },
          author: { value: 'Said', provenance: { source: 'stated', at: AT } },
        },
      }),
      files: new Map<string, string>(),
      resumed: false,
    },
  ];
  const runDir = path.join(root, 'runs', 'idx');
  const manifest = writeRun(runDir, 'idx', samples);
  expect(indexRun(runDir, manifest, samples)).toEqual([]);

  const html = fs.readFileSync(path.join(runDir, 'index.html'), 'utf8');
  expect(html).not.toContain('<script>window');
  expect(html).not.toContain('<img src=x');
  expect(html).not.toContain('href="javascript:');
  // A value the model only stated is marked for a person to check; one read from the page is not.
  expect(html.match(/stated, not read from the page — check it/g)).toHaveLength(1);

  await page.goto(pathToFileURL(path.join(runDir, 'index.html')).href);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(page.locator('tr.sample')).toHaveCount(2);
  await expect(page.locator('#sample-demo-a1 dd[data-field="title"]')).toContainText(HOSTILE);
  await expect(page.locator('#sample-demo-b2 .error')).toContainText(`the page said ${HOSTILE}`);
  await expect(page.locator('#sample-demo-b2 .status')).toHaveText('needs review');
  await expect(page.locator('#sample-demo-a1 img.thumb')).toHaveJSProperty('naturalWidth', 1);
  await expect(page.locator('#sample-demo-a1 code.sha')).toHaveText(sha256(PNG));
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
});
