import * as fs from 'node:fs';
import { writeFileAtomic } from '../fs/atomic';
import { readZip, writeZip } from '../evidence/zip';

/**
 * Every form a secret value takes inside a trace: as typed, URL-encoded (a query string, a form post), and
 * JSON-escaped (call parameters, network records).
 */
export function secretForms(value: string): string[] {
  const uri = encodeURIComponent(value);
  const forms = [value, uri, uri.replace(/%20/g, '+'), JSON.stringify(value).slice(1, -1)];
  return [...new Set(forms)].filter(form => form.length >= 3).sort((a, b) => b.length - a.length);
}

function replaceAll(data: Buffer, from: Buffer, to: Buffer): Buffer {
  const parts: Buffer[] = [];
  let start = 0;
  for (let at = data.indexOf(from); at >= 0; at = data.indexOf(from, start)) {
    parts.push(data.subarray(start, at), to);
    start = at + from.length;
  }
  if (start === 0) return data;
  parts.push(data.subarray(start));
  return Buffer.concat(parts);
}

/**
 * Rewrites a Playwright trace with every secret value replaced by its `{{secret:NAME}}` placeholder. What bwa
 * itself types never reaches a trace (secret-fill, untraced observations), but a page can still send a secret
 * on: a sign-in form posts the password, and the trace's network log keeps the request body.
 * Returns the names of the entries that held a secret.
 */
export function redactTrace(file: string, secrets: Readonly<Record<string, string>>): string[] {
  const replacements = Object.entries(secrets)
    .filter(([, value]) => value.length >= 3)
    .flatMap(([name, value]) => secretForms(value).map(form => [Buffer.from(form), Buffer.from(`{{secret:${name}}}`)] as const))
    .sort((a, b) => b[0].length - a[0].length);
  if (replacements.length === 0 || !fs.existsSync(file)) return [];
  const entries = readZip(fs.readFileSync(file));
  const touched: string[] = [];
  for (const [name, data] of entries) {
    let next = data;
    for (const [from, to] of replacements) next = replaceAll(next, from, to);
    if (next !== data) {
      entries.set(name, next);
      touched.push(name);
    }
  }
  if (touched.length) writeFileAtomic(file, writeZip(entries));
  return touched;
}
