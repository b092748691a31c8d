import * as fs from 'node:fs';
import { writeFileAtomic } from '../fs/atomic';
import { readZip, writeZip } from '../evidence/zip';
import type { SecretMasker } from '../secrets/masker';

/**
 * String values of a trace's records that are Playwright's own names and ids, never page data: masking leaves them,
 * so a secret equal to "click" or "before" cannot make a trace unreadable.
 */
const TRACE_IDENTIFIERS = [
  '**.type',
  '**.method',
  '**.class',
  '**.callId',
  '**.stepId',
  '**.parentId',
  '**.pageId',
  '**.frameId',
  '**.guid',
  '**.sha1',
  '**._sha1',
  '**.contextId',
  '**.snapshotName',
  '**.mimeType',
  '**.browserName',
  '**.platform',
  '**.sdkLanguage',
];

const JSON_LINES = /\.(trace|network)$/;
const JSON_FILE = /\.(stacks|json)$/;

/** Text a page or a serialiser wrote, or bytes (a screenshot, an image the page loaded) that are no text. */
function asText(data: Buffer): string | undefined {
  if (data.subarray(0, 8192).includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return undefined;
  }
}

/** One JSON record masked by structure; a line that is no JSON is masked as text. Unchanged unless a secret was in it. */
function maskRecord(line: string, masker: SecretMasker): string {
  if (masker.text(line) === line) return line;
  try {
    const record: unknown = JSON.parse(line);
    const masked = masker.value(record, TRACE_IDENTIFIERS);
    return JSON.stringify(masked) === JSON.stringify(record) ? line : JSON.stringify(masked);
  } catch {
    return masker.text(line);
  }
}

function maskEntry(name: string, data: Buffer, masker: SecretMasker): Buffer {
  const text = asText(data);
  if (text === undefined) return data;
  let masked: string;
  if (JSON_LINES.test(name))
    masked = text
      .split('\n')
      .map(line => maskRecord(line, masker))
      .join('\n');
  else if (JSON_FILE.test(name)) masked = maskRecord(text, masker);
  else masked = masker.text(text);
  return masked === text ? data : Buffer.from(masked, 'utf8');
}

/**
 * Rewrites a Playwright trace with every secret replaced by its `{{secret:NAME}}` placeholder, in every encoding a
 * page or URL gives it: its records (call parameters, step titles, console, DOM snapshots, network log) masked by
 * structure, the resources that are text (a page's HTML, a form post, a JSON answer) as text, images left as they
 * are. What bwa itself types never reaches a trace (secret-fill, untraced observations), but a page can still send a
 * secret on: a sign-in form posts the password, a page echoes it. Returns the names of the entries that held one.
 */
export function redactTrace(file: string, masker: SecretMasker): string[] {
  if (masker.isEmpty || !fs.existsSync(file)) return [];
  const entries = readZip(fs.readFileSync(file));
  const touched: string[] = [];
  for (const [name, data] of entries) {
    const next = maskEntry(name, data, masker);
    if (next !== data) {
      entries.set(name, next);
      touched.push(name);
    }
  }
  if (touched.length) writeFileAtomic(file, writeZip(entries));
  return touched;
}
