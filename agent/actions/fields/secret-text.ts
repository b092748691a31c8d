import type { Locator } from '@playwright/test';
import { ELEMENT_TIMEOUT_MS } from '../core/limits';
import { ActionError, type ActionPolicy } from '../core/types';
import { PlaceholderError, placeholdersIn } from '../../secrets/placeholders';

/**
 * The address of the frame the field is in, as the browser knows it (a page script cannot forge it): a secret
 * belongs to a site, and a field in a frame from elsewhere is on that other site.
 */
async function frameUrlOf(locator: Locator): Promise<string> {
  const handle = await locator.elementHandle({ timeout: ELEMENT_TIMEOUT_MS });
  try {
    return (await handle?.ownerFrame())?.url() ?? locator.page().url();
  } finally {
    await handle?.dispose();
  }
}

/**
 * Runs a browser call with the text's placeholders filled in — `{{secret:…}}` only where the field's site is one the
 * secret belongs to — making sure no error it throws can carry a value back into a log: every resolved value in the
 * message is put back as its placeholder.
 */
export async function withSecretsHidden<T>(text: string, locator: Locator, policy: ActionPolicy, body: (resolved: string) => Promise<T>): Promise<T> {
  if (placeholdersIn(text).length === 0 && !text.includes('{{')) return body(text);
  const url = await frameUrlOf(locator);
  let resolved: string;
  try {
    resolved = policy.resolvePlaceholders(text, url);
  } catch (error) {
    if (error instanceof PlaceholderError) throw new ActionError(error.message);
    throw error;
  }
  if (resolved === text) return body(resolved);
  const pairs = placeholdersIn(text)
    .map(use => [policy.resolvePlaceholders(use.text, url), use.text] as const)
    .filter(([value]) => value.length > 0)
    .sort((a, b) => b[0].length - a[0].length);
  try {
    return await body(resolved);
  } catch (error) {
    let message = error instanceof Error ? error.message : String(error);
    message = message.split(resolved).join(text);
    for (const [value, placeholder] of pairs) message = message.split(value).join(placeholder);
    throw new Error(message);
  }
}
