import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { env } from '../env/read';
import { BwaInputError, formatZodIssues } from './input-errors';
import { parseJsonFile } from './load-task';
import { SemanticLocator } from './locator-schema';
import { RecipeStep } from './schema';
import { malformedPlaceholders, notAPlaceholder, secretNamesIn } from '../secrets/placeholders';

/** How to sign in for an auth_profile, as data: a page, steps in the recipe vocabulary, and what proves it worked. */
export const AuthProfileSchema = z.strictObject({
  $schema: z.string().optional(),
  start_url: z.url().describe('The sign-in page'),
  steps: z
    .array(RecipeStep)
    .min(1)
    .describe('Recipe steps that sign in; put credentials as {{secret:NAME}} (SECRET_NAME in .env), a plain user name as {{env:NAME}} (ENV_NAME)')
    .superRefine((steps, ctx) => {
      for (const bad of malformedPlaceholders(JSON.stringify(steps))) ctx.addIssue({ code: 'custom', message: notAPlaceholder(bad) });
    }),
  check: z
    .strictObject({
      url: z.string().optional().describe('Regular expression the page URL must match once signed in'),
      visible: SemanticLocator.optional().describe('An element only a signed-in page shows'),
    })
    .refine(check => check.url !== undefined || check.visible !== undefined, 'give url, visible, or both')
    .describe('What proves the sign-in worked'),
  allowed_domains: z
    .array(z.string().min(1))
    .optional()
    .describe("Hosts the sign-in may visit, and the only ones its secrets are typed on (default: start_url's host:port)"),
});
export type AuthProfile = z.output<typeof AuthProfileSchema>;

const PROFILE_NAME = /^[A-Za-z0-9_-]+$/;
export const PROFILE_NAME_RULE = 'a plain name (letters, digits, "_", "-")';
export const ProfileName = z.string().regex(PROFILE_NAME);

export function checkProfileName(profile: string): string {
  if (!PROFILE_NAME.test(profile)) throw new BwaInputError('BWA_AUTH_PROFILE', `auth_profile "${profile}" must be ${PROFILE_NAME_RULE}`);
  return profile;
}

/** tasks/auth/<profile>.json: the sign-in steps for a profile. */
export function authProfileFile(tasksDir: string, profile: string): string {
  return path.join(tasksDir, 'auth', `${checkProfileName(profile)}.json`);
}

/** auth_profile "people" → .auth/people.json: the storage state a sign-in or `bwa auth import` left (git-ignored). */
export function authStatePath(profile: string): string {
  return path.join(env.AGENT_AUTH_DIR, `${checkProfileName(profile)}.json`);
}

/** The profile's sign-in steps, or undefined when it has none (then only an imported storage state can serve it). */
export function loadAuthProfile(tasksDir: string, profile: string): AuthProfile | undefined {
  const file = authProfileFile(tasksDir, profile);
  if (!fs.existsSync(file)) return undefined;
  const parsed = AuthProfileSchema.safeParse(parseJsonFile(file, 'BWA_AUTH_PROFILE'));
  if (!parsed.success) throw new BwaInputError('BWA_AUTH_PROFILE', `${file}: invalid auth profile\n${formatZodIssues(parsed.error)}`);
  return parsed.data;
}

/** Secrets the profile's steps use, in order of first use. */
export function profileSecretNames(profile: AuthProfile): string[] {
  return secretNamesIn(JSON.stringify(profile.steps));
}
