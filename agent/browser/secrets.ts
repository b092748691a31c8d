import { SECRET_ENV_PREFIX } from '../env/variables';
import { Redactor } from '../evidence/redact';

const SECRET_PLACEHOLDER = /\{\{\s*secret:([A-Z][A-Z0-9_]*)\s*\}\}/g;

export function makeSecretResolver(secrets: Readonly<Record<string, string>>): (text: string) => string {
  return text =>
    text.replace(SECRET_PLACEHOLDER, (_whole, name: string) => {
      const value = secrets[name];
      if (value === undefined) throw new Error(`{{secret:${name}}} is not set: add ${SECRET_ENV_PREFIX}${name}=… to .env`);
      return value;
    });
}

export const redactorFor = (secrets: Readonly<Record<string, string>>): Redactor => new Redactor(secrets);
