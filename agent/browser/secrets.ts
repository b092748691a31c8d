import { Redactor } from '../evidence/redact';

const SECRET_PLACEHOLDER = /\{\{\s*secret:([A-Z][A-Z0-9_]*)\s*\}\}/g;
export const SECRET_ENV_PREFIX = 'SECRET_';

/**
 * Secrets live in the environment (usually .env) as SECRET_<NAME>=value and appear everywhere else only as
 * {{secret:NAME}}. The prefix keeps a task spec from typing arbitrary environment variables (an API key) into a page.
 */
export function secretsFromEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(env))
    if (key.startsWith(SECRET_ENV_PREFIX) && value) secrets[key.slice(SECRET_ENV_PREFIX.length)] = value;
  return secrets;
}

export function makeSecretResolver(secrets: Readonly<Record<string, string>>): (text: string) => string {
  return text =>
    text.replace(SECRET_PLACEHOLDER, (_whole, name: string) => {
      const value = secrets[name];
      if (value === undefined) throw new Error(`{{secret:${name}}} is not set: add ${SECRET_ENV_PREFIX}${name}=… to .env`);
      return value;
    });
}

export const redactorFor = (secrets: Readonly<Record<string, string>>): Redactor => new Redactor(secrets);
