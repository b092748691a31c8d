import { expect, test } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { fillSecret } from '../../../agent/actions/fields/secret-fill';
import { sha256 } from '../../../agent/evidence/hash';
import { observe } from '../../../agent/snapshot';
import { tempDir } from '../helpers/temp';
import { serveForm } from './secret-form';
import { readZip } from './zip';

// The test starts the trace itself, on a context of its own.
test.use({ trace: 'off' });

test('observe() after a secret was typed: the page state masks the field and the trace holds the value nowhere', async ({ browser }) => {
  const server = await serveForm();
  const context = await browser.newContext();
  try {
    const secret = `Sx${randomBytes(12).toString('hex')}`;
    await context.tracing.start({ snapshots: true, screenshots: true });
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    await fillSecret(page.getByLabel('Access token'), secret, '{{secret:ACCESS_TOKEN}}', { timeout: 8_000 });
    await expect(page.locator('#digest')).toHaveText(sha256(secret));
    // Playwright's AI snapshot reads the field's real value; the observation shows it masked, and the snapshot call
    // itself (whose result a trace would store) is not traced.
    const observation = await observe(page);
    expect(observation.text).toContain('textbox "Access token" value="********"');
    expect(observation.text).not.toContain(secret);
    await page.getByLabel('Name').fill('Alice');
    const zipPath = path.join(tempDir('bwa-trace-'), 'trace.zip');
    await context.tracing.stop({ path: zipPath });
    const entries = [...readZip(fs.readFileSync(zipPath))];
    expect(entries.length).toBeGreaterThan(1);
    expect(entries.filter(([, data]) => data.includes(secret)).map(([name]) => name)).toEqual([]);
  } finally {
    await context.close();
    await new Promise(resolve => server.close(resolve));
  }
});
