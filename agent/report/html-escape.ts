/** Text for HTML element content and quoted attribute values. Everything page-derived passes through here. */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, ch => `&#${ch.charCodeAt(0)};`);
}

/** A link to a file of the run, relative to the index: each path segment percent-encoded, so no name becomes markup or a scheme. */
export function relativeHref(relativePath: string): string {
  return relativePath
    .split('/')
    .map(segment => encodeURIComponent(segment))
    .join('/');
}

/** Page URLs become links only when they are http(s): a page must not put a javascript: link in our report. */
export function safeExternalHref(url: string): string | undefined {
  return /^https?:\/\//i.test(url) ? escapeHtml(url) : undefined;
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
