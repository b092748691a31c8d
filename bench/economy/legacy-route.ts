import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ROUTE_HEADERS } from '../../agent/decide/request-route';

/**
 * A baseline agent older than request-route headers (7fd44df and before) named its task, sample and attempt in
 * the prompt ("task_id: …\nsample_id: …\nattempt: …"). The scripted server now routes by header only, so the
 * bench puts such an agent behind this proxy, which copies those lines into the headers and forwards the request
 * unchanged: the baseline is billed for exactly the prompt it sent, routing lines included.
 */
const PROMPT_ROUTE = /task_id: (\S+)\nsample_id: (\S+)\nattempt: (\d+)/;

export interface LegacyRouteProxy {
  url: string;
  close(): Promise<void>;
}

export async function startLegacyRouteProxy(target: string): Promise<LegacyRouteProxy> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const route = PROMPT_ROUTE.exec(body.toString('utf8').replace(/\\n/g, '\n'));
      const headers: http.OutgoingHttpHeaders = { ...req.headers, host: upstream.host, 'content-length': body.length };
      if (route && !req.headers[ROUTE_HEADERS.task]) {
        Object.assign(headers, {
          [ROUTE_HEADERS.task]: encodeURIComponent(route[1]!),
          [ROUTE_HEADERS.sample]: encodeURIComponent(route[2]!),
          [ROUTE_HEADERS.attempt]: route[3]!,
        });
      }
      const forward = http.request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, reply => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      });
      forward.on('error', error => {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `legacy-route proxy: ${error.message}` } }));
      });
      forward.end(body);
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise(resolve => server.close(() => resolve())) };
}
