import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { archivePreviousAttempt } from '../../../agent/evidence/attempts';
import { sanitizeFilename } from '../../../agent/evidence/filenames';
import { sha256 } from '../../../agent/evidence/hash';
import { SecretMasker } from '../../../agent/secrets/masker';
import { EvidenceStore } from '../../../agent/evidence/store';
import { tempDir } from '../helpers/temp';

test('screenshots get sequential NN_label names and the sha256 of the bytes written', async () => {
  const store = new EvidenceStore(tempDir());
  const seen: string[] = [];
  store.onArtifact(a => void seen.push(a.filename));
  const first = await store.saveScreenshot(Buffer.from('png-1'), 'Profile Page', 'http://x/1');
  const second = await store.saveBytes(Buffer.from('csv'), 'report.csv', 'http://x/2', 'download');
  const third = await store.saveScreenshot(Buffer.from('png-3'), '../../checks', 'http://x/3');
  expect([first.filename, second.filename, third.filename]).toEqual(['01_profile_page.png', '02_report.csv', '03_checks.png']);
  expect(first.sha256).toBe(sha256(Buffer.from('png-1')));
  expect(fs.readFileSync(store.pathOf(third.filename)).toString()).toBe('png-3');
  expect(first.bytes).toBe(5);
  expect(seen).toEqual(['01_profile_page.png', '02_report.csv', '03_checks.png']);
});

test('streamed files are hashed while they are copied', async () => {
  const dir = tempDir();
  const source = path.join(dir, 'big.bin');
  const bytes = Buffer.alloc(3 * 1024 * 1024, 7);
  fs.writeFileSync(source, bytes);
  const store = new EvidenceStore(path.join(dir, 'sample'));
  const artifact = await store.saveFromStream(fs.createReadStream(source), 'big.bin', 'http://x/big');
  expect(artifact.sha256).toBe(sha256(bytes));
  expect(artifact.bytes).toBe(bytes.length);
  expect(fs.readdirSync(store.dir)).toEqual(['01_big.bin']);
});

test('hostile download names cannot leave the folder or carry control characters', () => {
  expect(sanitizeFilename('../../etc/passwd\u0007.csv')).toBe('etc_passwd_.csv');
  expect(sanitizeFilename('..\\..\\windows\\system.ini')).toBe('windows_system.ini');
  expect(sanitizeFilename('...')).toBe('file');
  expect(sanitizeFilename('.bashrc')).toBe('bashrc');
  expect(sanitizeFilename('a'.repeat(300) + '.pdf').length).toBeLessThanOrEqual(80);
  expect(sanitizeFilename('report\nname\r.pdf')).toBe('report_name_.pdf');
});

test('JSON written through the store is redacted', () => {
  const store = new EvidenceStore(tempDir(), SecretMasker.of({ PASSWORD: 'hunter2-secret' }));
  const file = store.writeJson('action_log.json', [{ typed: 'hunter2-secret', url: 'http://x/?p=hunter2-secret' }]);
  const text = fs.readFileSync(file, 'utf8');
  expect(text).not.toContain('hunter2-secret');
  expect(text).toContain('{{secret:PASSWORD}}');
});

test('an earlier attempt is moved aside, never overwritten', () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, '01_profile.png'), 'first');
  fs.writeFileSync(path.join(dir, 'result.json'), '{}');
  expect(path.basename(archivePreviousAttempt(dir)!)).toBe('attempt-1');
  fs.writeFileSync(path.join(dir, '01_profile.png'), 'second');
  expect(path.basename(archivePreviousAttempt(dir)!)).toBe('attempt-2');
  expect(fs.readFileSync(path.join(dir, 'attempt-1', '01_profile.png'), 'utf8')).toBe('first');
  expect(fs.readFileSync(path.join(dir, 'attempt-2', '01_profile.png'), 'utf8')).toBe('second');
  expect(archivePreviousAttempt(dir)).toBeUndefined();
});
