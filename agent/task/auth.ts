import * as path from 'node:path';

/** auth_profile "people" → .auth/people.json (produced by a setup step; git-ignored). */
export function authStatePath(profile: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(profile)) throw new Error(`auth_profile "${profile}" must be a plain name (letters, digits, "_", "-")`);
  return path.resolve(process.env.AGENT_AUTH_DIR ?? '.auth', `${profile}.json`);
}
