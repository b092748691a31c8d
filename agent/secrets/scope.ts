import { isUrlAllowed } from '../browser/domains';
import { fillPlaceholders, PlaceholderError, secretNamesIn, secretPlaceholder, type PlaceholderValues } from './placeholders';

/** Where one secret may be typed: sites in the allowed_domains notation, and who named them (said when refusing). */
export interface SecretScope {
  sites: readonly string[];
  from: string;
}

/** The secrets a sample may type, each with its sites; a secret not listed may be typed nowhere. */
export type SecretScopes = Readonly<Record<string, SecretScope>>;

function hostOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why the text may not be typed into a field of the page at `url`, or undefined when every secret in it belongs
 * there. A field in a frame without an address of its own (about:blank, srcdoc, data:) is no site a secret belongs to.
 */
export function scopeRefusal(text: string, url: string, scopes: SecretScopes): string | undefined {
  for (const name of secretNamesIn(text)) {
    const scope = scopes[name];
    if (!scope)
      return `refused to type ${secretPlaceholder(name)}: this task does not use it (a secret is typed only where its auth profile's steps or the task name it)`;
    const host = hostOf(url);
    if (!host || !isUrlAllowed(url, scope.sites))
      return `refused to type ${secretPlaceholder(name)} into a field on ${host ?? 'a page without an address of its own'}: it may be typed only on ${scope.sites.join(', ')} (${scope.from})`;
  }
  return undefined;
}

/**
 * Fills in the placeholders of text to be typed into a field of the page at `url`, after checking every secret in it
 * belongs on that site. Throws a PlaceholderError naming the placeholder, never a value.
 */
export function resolveForSite(text: string, url: string, values: PlaceholderValues, scopes: SecretScopes): string {
  const refusal = scopeRefusal(text, url, scopes);
  if (refusal) throw new PlaceholderError(refusal);
  return fillPlaceholders(text, values);
}
