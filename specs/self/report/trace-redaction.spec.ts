import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readZip, writeZip } from '../../../agent/evidence/zip';
import { redactTrace, secretForms } from '../../../agent/report/trace-redaction';
import { tempDir } from '../helpers/temp';

const SECRET = 'Tr0ub4dor&3 horse"battery';

test('a secret in a trace is replaced in every form it takes: typed, URL-encoded, form-encoded, JSON-escaped', () => {
  expect(secretForms(SECRET)).toEqual(
    expect.arrayContaining([SECRET, 'Tr0ub4dor%263%20horse%22battery', 'Tr0ub4dor%263+horse%22battery', 'Tr0ub4dor&3 horse\\"battery']),
  );
  const file = path.join(tempDir('bwa-trace-redaction-'), 'trace.zip');
  const post = Buffer.from(`user=ada&password=${encodeURIComponent(SECRET).replace(/%20/g, '+')}`);
  const network = Buffer.from(
    JSON.stringify({
      type: 'resource-snapshot',
      snapshot: { request: { url: `https://site.test/login?p=${encodeURIComponent(SECRET)}`, postData: SECRET } },
    }),
  );
  const untouched = Buffer.from('{"type":"before","method":"click"}');
  fs.writeFileSync(
    file,
    writeZip(
      new Map([
        ['resources/3f2a.dat', post],
        ['0-trace.network', network],
        ['0-trace.trace', untouched],
      ]),
    ),
  );

  expect(redactTrace(file, { LOGIN_PASSWORD: SECRET, UNUSED: 'never-typed' }).sort()).toEqual(['0-trace.network', 'resources/3f2a.dat']);
  const entries = readZip(fs.readFileSync(file));
  expect(entries.get('resources/3f2a.dat')!.toString()).toBe('user=ada&password={{secret:LOGIN_PASSWORD}}');
  expect(JSON.parse(entries.get('0-trace.network')!.toString()).snapshot.request).toEqual({
    url: 'https://site.test/login?p={{secret:LOGIN_PASSWORD}}',
    postData: '{{secret:LOGIN_PASSWORD}}',
  });
  expect(entries.get('0-trace.trace')).toEqual(untouched);
  // Nothing left to redact: the file is not rewritten.
  const before = fs.statSync(file).mtimeMs;
  expect(redactTrace(file, { LOGIN_PASSWORD: SECRET })).toEqual([]);
  expect(fs.statSync(file).mtimeMs).toBe(before);
});
