import type { ActionPolicy } from '../core/types';

const PLACEHOLDER = /\{\{\s*secret:[A-Za-z0-9_]+\s*\}\}/g;

export function hasSecrets(text: string): boolean {
  return new RegExp(PLACEHOLDER.source).test(text);
}

/**
 * Runs a browser call with secret values in hand, making sure no error it throws can carry a value back
 * into a log: every resolved value in the message is put back as its placeholder.
 */
export async function withSecretsHidden<T>(text: string, policy: ActionPolicy, body: (resolved: string) => Promise<T>): Promise<T> {
  const resolved = policy.resolveSecrets(text);
  if (resolved === text) return body(resolved);
  const pairs = [...new Set(text.match(PLACEHOLDER) ?? [])]
    .map(placeholder => [policy.resolveSecrets(placeholder), placeholder] as const)
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
