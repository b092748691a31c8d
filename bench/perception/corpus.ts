import * as fs from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type { BrowserContext } from '@playwright/test';
import { z } from 'zod';

/**
 * A folder of saved real pages (`html/<id>.html.gz` + `ground-truth.json` mapping id → { url, articleBody }),
 * served from 127.0.0.1 with every other request aborted, so the pages load offline as any saved page would.
 */

const groundTruthSchema = z.record(z.string(), z.object({ url: z.string(), articleBody: z.string() }));

export interface CorpusPage {
  id: string;
  originalUrl: string;
  articleBody: string;
}

export function readCorpus(dir: string): CorpusPage[] {
  const truthFile = path.join(dir, 'ground-truth.json');
  if (!fs.existsSync(truthFile)) throw new Error(`${truthFile}: not found — pass the corpus folder (holding html/ and ground-truth.json)`);
  const parsed = groundTruthSchema.safeParse(JSON.parse(fs.readFileSync(truthFile, 'utf8')));
  if (!parsed.success) throw new Error(`${truthFile}: expected { "<id>": { url, articleBody } }: ${parsed.error.message}`);
  return Object.entries(parsed.data)
    .filter(([id]) => fs.existsSync(pageFile(dir, id)))
    .map(([id, truth]) => ({ id, originalUrl: truth.url, articleBody: truth.articleBody }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** A saved page's HTML, as the corpus server sends it. */
export function readPageHtml(dir: string, id: string): string {
  return zlib.gunzipSync(fs.readFileSync(pageFile(dir, id))).toString('utf8');
}

function pageFile(dir: string, id: string): string {
  return path.join(dir, 'html', `${id}.html.gz`);
}

export interface CorpusServer {
  origin: string;
  urlOf(id: string): string;
  close(): Promise<void>;
}

export async function serveCorpus(dir: string): Promise<CorpusServer> {
  const server: Server = createServer((req, res) => {
    const id = (req.url ?? '/').slice(1).split(/[?#]/)[0] ?? '';
    const file = /^[0-9a-f]{16,}$/.test(id) ? pageFile(dir, id) : '';
    if (!file || !fs.existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(zlib.gunzipSync(fs.readFileSync(file)));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    urlOf: id => `${origin}/${id}`,
    close: () => new Promise<void>(resolve => server.close(() => resolve())),
  };
}

/** Only the corpus server answers: fonts, scripts, trackers and images of the original site are aborted. */
export async function offlineOnly(context: BrowserContext, origin: string): Promise<void> {
  await context.route('**/*', route => (route.request().url().startsWith(`${origin}/`) ? route.continue() : route.abort()));
}
