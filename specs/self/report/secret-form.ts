import * as http from 'node:http';

/**
 * A form that proves it received the token (it shows the token's SHA-256, never the token) and posts it, as a
 * sign-in form does: the request body then carries the secret into the trace's network log.
 */
const FORM_PAGE = `<!doctype html><meta charset="utf-8"><title>Sign in</title>
<h1>Sign in</h1>
<form method="post" action="/session">
<label>Access token <input id="token" name="token" type="text" autocomplete="off"></label>
<label>Name <input id="name" name="name"></label>
<button type="submit">Sign in</button>
</form>
<script>
document.getElementById('token').addEventListener('input', async event => {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(event.target.value));
  let out = document.getElementById('digest');
  if (!out) { out = document.createElement('output'); out.id = 'digest'; document.body.append(out); }
  out.textContent = [...new Uint8Array(digest)].map(b => b.toString(16).padStart(2, '0')).join('');
});
</script>`;

export function serveForm(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const page = req.method === 'POST' ? '<!doctype html><meta charset="utf-8"><title>Signed in</title><h1>Signed in</h1>' : FORM_PAGE;
    req.resume();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve(server)));
}
