import * as path from 'node:path';
import type { z } from 'zod';
import type { EnvVariable } from './kinds';
import { EnvError } from './env-error';
import { ENV_VARIABLES, type EnvName } from './variables';
import { SECRET_ENV_PREFIX, SETTING_ENV_PREFIX, type PlaceholderValues } from '../secrets/placeholders';

export type EnvSource = Readonly<Record<string, string | undefined>>;
type ValueOf<V> = V extends EnvVariable<infer T> ? T : never;
export type EnvValues = { readonly [K in EnvName]: ValueOf<(typeof ENV_VARIABLES)[K]> };

/** The one place process.env is read: unset and blank are the same, and the value is checked each time it is read. */
export function readEnv<K extends EnvName>(name: K, source: EnvSource = process.env): EnvValues[K] {
  const variable: EnvVariable = ENV_VARIABLES[name];
  const raw = source[name];
  const parsed = variable.schema.safeParse(raw?.trim() ? raw : undefined);
  if (parsed.success) return (variable.projectRelative ? path.resolve(projectDir(source), parsed.data as string) : parsed.data) as EnvValues[K];
  throw new EnvError(name, rejection(name, variable, raw!, parsed.error));
}

/** The user's project folder: the folder of their Playwright config (AGENT_PROJECT_DIR, set by withBwa), else the working directory. */
export function projectDir(source: EnvSource = process.env): string {
  return readEnv('AGENT_PROJECT_DIR', source) ?? process.cwd();
}

/**
 * Every variable checked at once, as a run or a command starts: a value its schema rejects stops it before anything
 * acts, rather than when the value is first read (which may be after a sample has submitted a form).
 */
export function checkEnvironment(source: EnvSource = process.env): EnvError[] {
  return (Object.keys(ENV_VARIABLES) as EnvName[]).flatMap(name => {
    try {
      readEnv(name, source);
      return [];
    } catch (error) {
      if (error instanceof EnvError) return [error];
      throw error;
    }
  });
}

/**
 * Every variable as a property read when it is used, never at import: workers inherit what the main process set
 * (AGENT_RUN_ID, AGENT_INVOCATION_ID) and tests change the environment between reads. A source other than this
 * process's environment is for tests and callers that hold one.
 */
export function envOf(source?: EnvSource): EnvValues {
  const view = {} as EnvValues;
  for (const name of Object.keys(ENV_VARIABLES) as EnvName[])
    Object.defineProperty(view, name, { enumerable: true, get: () => readEnv(name, source ?? process.env) });
  return view;
}

export const env: EnvValues = envOf();

/** Whether the variable is given (not unset, not blank): a setting of the user's that wins over a default bwa works out. */
export function isSet(name: EnvName, source: EnvSource = process.env): boolean {
  return Boolean(source[name]?.trim());
}

/** Sets a variable this process's workers (and the children it starts) inherit. */
export function passOn(name: EnvName, value: string): void {
  process.env[name] = value;
}

/** The variable's value, set first to `make()` when it is unset or empty. */
export function passOnUnlessSet(name: EnvName, make: () => string): string {
  const current = process.env[name];
  if (current) return current;
  const value = make();
  process.env[name] = value;
  return value;
}

function withPrefix(prefix: string, source: EnvSource = process.env): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) if (key.startsWith(prefix) && value) values[key.slice(prefix.length)] = value;
  return values;
}

/**
 * Secrets live in the environment (usually .env) as SECRET_<NAME>=value and appear everywhere else only as
 * {{secret:NAME}}. The prefix keeps a task spec from typing arbitrary environment variables (an API key) into a page.
 */
export function secretsFromEnv(source?: EnvSource): Record<string, string> {
  return withPrefix(SECRET_ENV_PREFIX, source);
}

/** Plain settings: ENV_<NAME>=value, {{env:NAME}} in a task or sign-in profile; typed as is, never masked. */
export function settingsFromEnv(source?: EnvSource): Record<string, string> {
  return withPrefix(SETTING_ENV_PREFIX, source);
}

export function placeholderValuesFromEnv(source?: EnvSource): PlaceholderValues {
  return { secrets: secretsFromEnv(source), settings: settingsFromEnv(source) };
}

/** An address's user and password are credentials (a gateway's `https://user:key@proxy/`): never repeated. */
function withoutUserinfo(raw: string): string {
  return raw.replace(/^([a-z][\w+.-]*:\/\/)[^/?#@\s]*@/i, '$1…@');
}

function rejection(name: EnvName, variable: EnvVariable, raw: string, error: z.ZodError): string {
  const details = error.issues.filter(issue => issue.code === 'custom').map(issue => issue.message);
  const detail = details.length ? ` (${details.join('; ')})` : '';
  const got = variable.sensitive ? '' : ` (got "${withoutUserinfo(raw)}")`;
  const example = variable.example ? `, e.g. ${variable.example}` : '';
  return `${name} must be ${variable.takes}${detail}${got}${example}`;
}
