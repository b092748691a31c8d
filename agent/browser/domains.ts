/**
 * allowed_domains entries: "example.com" allows that host and its subdomains on any port;
 * "127.0.0.1:4101" allows exactly that host and port; "*.example.com" allows subdomains only.
 */
export function isUrlAllowed(url: string, allowed: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'about:' && parsed.href === 'about:blank') return true;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const host = parsed.hostname.toLowerCase();
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  return allowed.some(entry => matches(entry.toLowerCase().trim(), host, port));
}

function matches(entry: string, host: string, port: string): boolean {
  const withPort = /^(.*):(\d+)$/.exec(entry);
  if (withPort) return withPort[1] === host && withPort[2] === port;
  if (entry.startsWith('*.')) return host.endsWith(entry.slice(1));
  return host === entry || host.endsWith(`.${entry}`);
}
