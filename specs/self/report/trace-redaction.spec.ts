import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readZip, writeZip } from '../../../agent/evidence/zip';
import { redactTrace } from '../../../agent/report/trace-redaction';
import { SecretMasker } from '../../../agent/secrets/masker';
import { ECHOED_PASSWORD, echoedForms, serveSecretEcho } from '../helpers/secret-echo';
import { tempDir } from '../helpers/temp';

const SECRET = 'Tr0ub4dor&3 horse"battery';

test('a secret in a trace is replaced in every form it takes, by structure: records stay readable, names of calls and images are left alone', () => {
  const file = path.join(tempDir('bwa-trace-redaction-'), 'trace.zip');
  const post = Buffer.from(`user=ada&password=${encodeURIComponent(SECRET).replace(/%20/g, '+')}`);
  const network = JSON.stringify({
    type: 'resource-snapshot',
    snapshot: { request: { url: `https://site.test/login?p=${encodeURIComponent(SECRET)}`, postData: SECRET } },
  });
  // A call named like the key-like secret ("click"): Playwright's names are no page data, the step title is.
  const call = JSON.stringify({ type: 'before', method: 'click', callId: 'call@1', title: `Typed ${JSON.stringify(SECRET)} then click` });
  const page = Buffer.from(`<p>Welcome back, Tr0ub4dor&amp;3&nbsp;horse&quot;battery</p>`);
  const image = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), Buffer.from(SECRET)]);
  fs.writeFileSync(
    file,
    writeZip(
      new Map([
        ['resources/3f2a.dat', post],
        ['resources/9c1e.html', page],
        ['resources/77ab.png', image],
        ['0-trace.network', Buffer.from(network)],
        ['0-trace.trace', Buffer.from(`${call}\n${JSON.stringify({ type: 'after', callId: 'call@1' })}`)],
      ]),
    ),
  );

  const masker = SecretMasker.of({ LOGIN_PASSWORD: SECRET, UNUSED: 'never-typed', CLICK_WORD: 'click' });
  expect(redactTrace(file, masker).sort()).toEqual(['0-trace.network', '0-trace.trace', 'resources/3f2a.dat', 'resources/9c1e.html']);
  const entries = readZip(fs.readFileSync(file));
  expect(entries.get('resources/3f2a.dat')!.toString()).toBe('user=ada&password={{secret:LOGIN_PASSWORD}}');
  expect(entries.get('resources/9c1e.html')!.toString()).toBe('<p>Welcome back, {{secret:LOGIN_PASSWORD}}</p>');
  expect(JSON.parse(entries.get('0-trace.network')!.toString()).snapshot.request).toEqual({
    url: 'https://site.test/login?p={{secret:LOGIN_PASSWORD}}',
    postData: '{{secret:LOGIN_PASSWORD}}',
  });
  const [before, after] = entries
    .get('0-trace.trace')!
    .toString()
    .split('\n')
    .map(line => JSON.parse(line));
  expect(before).toEqual({
    type: 'before',
    method: 'click',
    callId: 'call@1',
    title: 'Typed "{{secret:LOGIN_PASSWORD}}" then {{secret:CLICK_WORD}}',
  });
  expect(after).toEqual({ type: 'after', callId: 'call@1' });
  expect(entries.get('resources/77ab.png')).toEqual(image);
  // Nothing left to redact: the file is not rewritten.
  const unchanged = fs.statSync(file).mtimeMs;
  expect(redactTrace(file, SecretMasker.of({ LOGIN_PASSWORD: SECRET }))).toEqual([]);
  expect(fs.statSync(file).mtimeMs).toBe(unchanged);
});

test('a real trace of a page echoing a password in every encoding (typed, JSON, JSON in JSON, URL, form, HTML, character references) holds none of them once masked, and every record still parses', async ({
  browser,
}) => {
  const site = await serveSecretEcho();
  const file = path.join(tempDir('bwa-trace-echo-'), 'trace.zip');
  const context = await browser.newContext();
  try {
    await context.tracing.start({ snapshots: true, screenshots: false });
    const page = await context.newPage();
    await page.goto(site.url);
    // A plain fill puts the value in the trace's call parameters too: the hardest case for the trace.
    await page.fill('#pw', ECHOED_PASSWORD);
    await expect(page.getByText('As character references:')).toBeVisible();
    await page.getByRole('link', { name: 'Open the ledger' }).click();
    await page.waitForURL(/\/ledger\?p=/);
    await context.tracing.stop({ path: file });
  } finally {
    await context.close();
    await site.close();
  }
  // Each form as the page showed it, and as a trace's JSON records carry it (escaped once or twice).
  const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
  const forms = echoedForms(ECHOED_PASSWORD).map(form => ({ form, bytes: [...new Set([form, escaped(form), escaped(escaped(form))])] }));
  const holding = (entries: Map<string, Buffer>) =>
    forms.filter(({ bytes }) => [...entries.values()].some(data => bytes.some(form => data.includes(Buffer.from(form))))).map(f => f.form);
  // The trace as recorded holds the password in each of its forms.
  expect(holding(readZip(fs.readFileSync(file)))).toEqual(forms.map(f => f.form));

  expect(redactTrace(file, SecretMasker.of({ LEDGER_PASSWORD: ECHOED_PASSWORD })).length).toBeGreaterThan(0);
  const entries = readZip(fs.readFileSync(file));
  expect(holding(entries)).toEqual([]);
  for (const [name, data] of entries)
    if (/\.(trace|network)$/.test(name))
      for (const line of data.toString('utf8').split('\n').filter(Boolean))
        expect(() => JSON.parse(line), `${name}: ${line.slice(0, 80)}`).not.toThrow();
  expect([...entries.values()].some(data => data.includes(Buffer.from('{{secret:LEDGER_PASSWORD}}')))).toBe(true);
});
