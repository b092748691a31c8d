import * as fs from 'node:fs';
import * as path from 'node:path';
import { isZip, readZip } from './zip';

/** A step as the Playwright HTML report stores it (attachments are indexes into the result's list). */
export interface HtmlStep {
  title: string;
  steps: HtmlStep[];
  attachments: number[];
  error?: string;
}

export interface HtmlTest {
  testId: string;
  title: string;
  results: Array<{ steps: HtmlStep[]; attachments: Array<{ name: string; path?: string; contentType: string }> }>;
}

const EMBEDDED_ZIP = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/;

/** The zip the HTML report embeds in its index.html (report.json plus one JSON file per spec file). */
export function htmlReportEntries(htmlDir: string): Map<string, Buffer> {
  const html = fs.readFileSync(path.join(htmlDir, 'index.html'), 'utf8');
  const match = EMBEDDED_ZIP.exec(html);
  if (!match?.[1]) throw new Error(`${htmlDir}/index.html embeds no report data`);
  return readZip(Buffer.from(match[1], 'base64'));
}

export function htmlReportTests(htmlDir: string): HtmlTest[] {
  const tests: HtmlTest[] = [];
  for (const [name, data] of htmlReportEntries(htmlDir)) {
    if (name === 'report.json') continue;
    tests.push(...(JSON.parse(data.toString('utf8')) as { tests: HtmlTest[] }).tests);
  }
  return tests;
}

/** Every entry of a file, recursively: a zip (trace, attachment) opened, an HTML report's embedded zip decoded. */
export function* expandFile(name: string, bytes: Buffer, depth = 0): Generator<{ name: string; bytes: Buffer }> {
  yield { name, bytes };
  if (depth > 3) return;
  if (isZip(bytes)) {
    for (const [entry, data] of readZip(bytes)) yield* expandFile(`${name}!${entry}`, data, depth + 1);
    return;
  }
  if (name.endsWith('.html')) {
    const match = EMBEDDED_ZIP.exec(bytes.toString('latin1'));
    if (match?.[1]) yield* expandFile(`${name}#embedded.zip`, Buffer.from(match[1], 'base64'), depth + 1);
  }
}

/** Every file under root, zips and embedded report data opened, whose bytes contain needle. */
export function filesContaining(root: string, needle: string): string[] {
  const hits: string[] = [];
  const wanted = Buffer.from(needle, 'utf8');
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else for (const part of expandFile(path.relative(root, full), fs.readFileSync(full))) if (part.bytes.includes(wanted)) hits.push(part.name);
    }
  };
  walk(root);
  return hits;
}

export function findStep(steps: readonly HtmlStep[], predicate: (step: HtmlStep) => boolean): HtmlStep | undefined {
  for (const step of steps) {
    if (predicate(step)) return step;
    const inner = findStep(step.steps, predicate);
    if (inner) return inner;
  }
  return undefined;
}
