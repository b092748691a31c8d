import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';

/**
 * A small site that is none of the bundled stand-ins, as a user's own site would be: a server script the tests
 * write to disk and a task starts through its web_servers (`node <script> <port>`).
 * Pages: /books/<id> (title and price; "nodata" has no price), /login (password "open-sesame") → /account, /health.
 */
export const SITE_SCRIPT = String.raw`
const http = require('node:http');
const port = Number(process.argv[2]);
const books = { b1: ['Dune', '$9.99'], b2: ['Emma', '$4.50'], b3: ['Ulysses', '$12.00'], nodata: ['Untitled', null] };
const page = (title, body) => '<!doctype html><html><head><title>' + title + '</title></head><body><main>' + body + '</main></body></html>';
http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const send = (status, html, headers = {}) => { res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }); res.end(html); };
  if (url.pathname === '/health') return send(200, 'ok');
  const book = /^\/books\/([a-z0-9]+)$/.exec(url.pathname);
  if (book && books[book[1]]) {
    const [title, price] = books[book[1]];
    return send(200, page(title, '<h1>' + title + '</h1>' + (price ? '<p class="price">Price: ' + price + '</p>' : '<p>Out of print</p>')));
  }
  if (url.pathname === '/login' && req.method === 'POST') {
    let body = '';
    req.on('data', chunk => (body += chunk));
    req.on('end', () => {
      const ok = new URLSearchParams(body).get('password') === 'open-sesame';
      if (ok) send(303, '', { location: '/account', 'set-cookie': 'session=1; Path=/' });
      else send(200, page('Sign in', '<p role="alert">Wrong password</p>' + form()));
    });
    return;
  }
  if (url.pathname === '/login') return send(200, page('Sign in', form()));
  if (url.pathname === '/account') return send(200, page('Account', '<h1>Your account</h1>'));
  send(404, page('Not found', '<h1>Not found</h1>'));
}).listen(port, '127.0.0.1');
function form() {
  return '<form method="post" action="/login"><label for="p">Password</label><input id="p" name="password" type="password"><button>Sign in</button></form>';
}
`;

export function writeSiteScript(dir: string): string {
  const file = path.join(dir, 'own-site.cjs');
  fs.writeFileSync(file, SITE_SCRIPT);
  return file;
}

/** A port nothing listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise(resolve => server.close(resolve));
  return port;
}

/** A task spec for the own site; tests override what they exercise. */
export function bookTask(taskId: string, port: number, script: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    task_id: taskId,
    start_url: `http://127.0.0.1:${port}/books/{{book}}`,
    system_prompt: 'Collect book facts.',
    goal: 'Screenshot the page, then extract title and price.',
    output_schema: { title: 'string | null', price: 'string | null' },
    input_schema: { book: 'string' },
    allowed_domains: [`127.0.0.1:${port}`],
    web_servers: [{ command: `node ${JSON.stringify(script)} ${port}`, url: `http://127.0.0.1:${port}/health`, timeout_seconds: 20 }],
    recipe: [
      { action: 'screenshot', label: 'page' },
      { action: 'extract', field: 'title', target: { role: 'heading' } },
      { action: 'extract', field: 'price', target: { css: '.price' }, pattern: '\\$([\\d.]+)' },
    ],
    ...overrides,
  };
}

export function writeTask(tasksDir: string, spec: Record<string, unknown>, rows: string[]): void {
  fs.mkdirSync(path.join(tasksDir, 'inputs'), { recursive: true });
  const taskId = spec.task_id as string;
  fs.writeFileSync(path.join(tasksDir, `${taskId}.json`), JSON.stringify(spec, null, 2));
  const columns = ['sample_id', ...Object.keys((spec.input_schema as Record<string, string>) ?? {})];
  fs.writeFileSync(path.join(tasksDir, 'inputs', `${taskId}.csv`), [columns.join(','), ...rows].join('\n') + '\n');
}
