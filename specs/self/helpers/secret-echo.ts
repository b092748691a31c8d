import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A password with a quote, a backslash and a space: each encoding writes it differently. */
export const ECHOED_PASSWORD = 'pa"ss\\wo rd9';
/** A number-like secret: the page also shows an amount that starts with the same digits. */
export const LEDGER_PIN = '1234';
/** A word-like secret that is also a word of the task's own system prompt. */
export const AUDIT_USER = 'auditor';

const htmlEscaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const numericEntities = (text: string) =>
  Array.from(text)
    .map(char => `&#${char.codePointAt(0)};`)
    .join('');

/** Every form the echo page shows a value in, as the bytes would carry it. */
export function echoedForms(value: string): string[] {
  const uri = encodeURIComponent(value);
  return [
    ...new Set([
      value,
      JSON.stringify(value).slice(1, -1),
      JSON.stringify(JSON.stringify(value)).slice(1, -1),
      uri,
      new URLSearchParams({ p: value }).toString().slice(2),
      htmlEscaped(value),
      numericEntities(value),
    ]),
  ];
}

/**
 * A ledger page that echoes what is typed into its password field in every form a page or a URL can give it — as
 * typed, inside JSON, URL- and form-encoded, HTML-escaped, as numeric character references — and puts it in its
 * own address; beside it an amount (1234.50) and a PIN (1234), and who is signed in.
 */
const PAGE = `<!doctype html><html lang="en"><meta charset="utf-8"><title>Ledger</title>
<h1>Ledger</h1>
<p>Signed in as <b>${AUDIT_USER}</b></p>
<label>Password <input id="pw" name="pw" type="password"></label>
<p id="total">Invoice total: 1234.50</p>
<p id="pin">Your PIN is ${LEDGER_PIN}</p>
<section id="echo" aria-label="Echo"></section>
<script>
const html = s => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
document.getElementById('pw').addEventListener('input', event => {
  const v = event.target.value;
  const lines = [
    'As typed: ' + v,
    'As JSON: ' + JSON.stringify({ password: v }),
    'JSON in JSON: ' + JSON.stringify(JSON.stringify({ password: v })),
    'In a query: /ledger?p=' + encodeURIComponent(v),
    'Form-encoded: ' + new URLSearchParams({ p: v }),
    'As HTML source: ' + html(v),
    'As character references: ' + [...v].map(c => '&#' + c.codePointAt(0) + ';').join(''),
  ];
  document.getElementById('echo').replaceChildren(...lines.map(text => Object.assign(document.createElement('p'), { textContent: text })));
  const link = Object.assign(document.createElement('a'), { href: '/ledger?p=' + encodeURIComponent(v), textContent: 'Open the ledger' });
  document.getElementById('echo').append(link);
  history.replaceState(null, '', '/?p=' + encodeURIComponent(v));
});
</script></html>`;

export async function serveSecretEcho(): Promise<{ url: string; host: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `http://${host}/`, host, close: () => new Promise(resolve => server.close(() => resolve())) };
}
