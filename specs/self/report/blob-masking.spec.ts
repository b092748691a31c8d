import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT, runNested } from '../helpers/nested-run';
import { tempDir } from '../helpers/temp';
import { readZip } from './zip';

const TOKEN = 'Qv8-tok3n-Lx29';
const MASK_REPORTER = path.join(PROJECT_ROOT, 'agent', 'report', 'mask-reporter.ts');

/** A test of the team's own that puts the secret where a blob report copies it before the test ends. */
const SPEC = `import { test } from '@playwright/test';
test('echoes a secret', async ({}, testInfo) => {
  await test.step(\`sign in with \${process.env.SECRET_TOKEN}\`, async () => {});
  await testInfo.attach('note.txt', { body: \`token \${process.env.SECRET_TOKEN} here\`, contentType: 'text/plain' });
  await test.step('after the attachment', async () => {});
  throw new Error(\`refused \${process.env.SECRET_TOKEN}\`);
});
`;

/** Everything a blob report holds, attachment bodies decoded from base64. */
function blobText(dir: string): string {
  const zips = fs.readdirSync(dir).filter(name => name.endsWith('.zip'));
  expect(zips).toHaveLength(1);
  const parts: string[] = [];
  for (const [, bytes] of readZip(fs.readFileSync(path.join(dir, zips[0]!)))) {
    const text = bytes.toString('utf8');
    parts.push(text);
    for (const [, base64] of text.matchAll(/"base64":"([A-Za-z0-9+/=]+)"/g)) parts.push(Buffer.from(base64!, 'base64').toString('utf8'));
  }
  return parts.join('\n');
}

test('with bwa/mask-reporter first, a blob report holds no secret: step titles as they begin, attachments as they are made, errors', async () => {
  test.setTimeout(120_000);
  const dir = fs.mkdtempSync(path.join(PROJECT_ROOT, 'specs', 'generated', '.test-blob-'));
  try {
    fs.writeFileSync(path.join(dir, 'echo.spec.ts'), SPEC);
    const config = path.join(dir, 'playwright.config.js');
    fs.writeFileSync(config, `module.exports = ${JSON.stringify({ testDir: dir, outputDir: tempDir('bwa-blob-out-'), retries: 0 })};\n`);
    const blob = (reporters: string) => {
      const out = tempDir('bwa-blob-');
      return runNested({ args: ['--config', config, `--reporter=${reporters}`], env: { SECRET_TOKEN: TOKEN, PLAYWRIGHT_BLOB_OUTPUT_DIR: out } }).then(
        run => ({ run, text: blobText(out) }),
      );
    };
    // The blob reporter alone copies the secret in every one of these places: what the masking reporter must catch.
    const bare = await blob('blob');
    expect(bare.run.code, bare.run.output).toBe(1);
    for (const where of [`sign in with ${TOKEN}`, `token ${TOKEN} here`, `refused ${TOKEN}`]) expect(bare.text).toContain(where);

    const masked = await blob(`${MASK_REPORTER},blob`);
    expect(masked.run.code, masked.run.output).toBe(1);
    expect(masked.text).not.toContain(TOKEN);
    for (const where of ['sign in with {{secret:TOKEN}}', 'token {{secret:TOKEN}} here', 'refused {{secret:TOKEN}}'])
      expect(masked.text).toContain(where);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
