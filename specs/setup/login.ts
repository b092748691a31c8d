import type { Browser } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SECRET_ENV_PREFIX } from '../../agent/browser/secrets';
import { authStatePath } from '../../agent/task/auth';
import { loadTaskFile, taskFiles } from '../../agent/task/load-task';
import { AUTH_PROFILES } from './auth-profiles';

/** auth_profile → the tasks that use it, from the task specs in tasksDir. */
export function profilesInUse(tasksDir: string): Map<string, string[]> {
  const profiles = new Map<string, string[]>();
  for (const file of taskFiles(tasksDir)) {
    const { spec } = loadTaskFile(file);
    if (spec.auth_profile) profiles.set(spec.auth_profile, [...(profiles.get(spec.auth_profile) ?? []), spec.task_id]);
  }
  return profiles;
}

/** The profile's secrets from the environment; one error naming every missing variable. */
export function profileSecrets(profile: string, tasks: readonly string[], env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const definition = AUTH_PROFILES[profile];
  const usedBy = tasks.length ? ` (used by ${tasks.join(', ')})` : '';
  if (!definition) throw new Error(`auth_profile "${profile}"${usedBy} has no login: add one to specs/setup/auth-profiles.ts`);
  const missing = definition.secrets.map(name => `${SECRET_ENV_PREFIX}${name}`).filter(variable => !env[variable]);
  if (missing.length)
    throw new Error(`auth_profile "${profile}"${usedBy} needs ${missing.join(' and ')} — set ${missing.length > 1 ? 'them' : 'it'} in .env (for the bundled fixture sites: cp .env.example .env)`);
  return Object.fromEntries(definition.secrets.map(name => [name, env[`${SECRET_ENV_PREFIX}${name}`]!]));
}

/** Signs in once in a fresh context and saves its storage state where tasks.spec.ts looks for it. */
export async function logIn(browser: Browser, profile: string, tasks: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const secrets = profileSecrets(profile, tasks, env);
  const file = authStatePath(profile);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await AUTH_PROFILES[profile]!.login(page, secrets);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await context.storageState({ path: file });
  } finally {
    await context.close();
  }
  return file;
}
