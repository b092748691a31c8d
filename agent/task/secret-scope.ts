import type { SecretScopes } from '../secrets/scope';
import { secretNamesIn } from '../secrets/placeholders';
import { profileSecretNames, type AuthProfile } from './auth-profile';
import type { TaskSpec } from './schema';

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

/** The sites an auth profile's secrets may be typed on: its allowed_domains, else its start page's host. */
export function profileSecretScopes(name: string, profile: AuthProfile): SecretScopes {
  const sites = profile.allowed_domains ?? [new URL(profile.start_url).host];
  return Object.fromEntries(
    profileSecretNames(profile).map(secret => [
      secret,
      { sites, from: `the sites of auth profile "${name}"${profile.allowed_domains ? '' : ' (its start page)'}` },
    ]),
  );
}

/**
 * Which secrets a sample of the task may type, and where: those its auth profile's steps name, on the profile's
 * sites; those the task itself names, on its start page's host; `secret_sites` sets a secret's sites outright. A
 * secret nothing names may be typed nowhere, whatever a page asks.
 */
export function taskSecretScopes(spec: TaskSpec, startUrl: string, profile?: { name: string; profile: AuthProfile }): SecretScopes {
  const scopes: Record<string, { sites: string[]; from: string[] }> = {};
  const add = (secret: string, sites: readonly string[], from: string) => {
    const scope = (scopes[secret] ??= { sites: [], from: [] });
    scope.sites.push(...sites.filter(site => !scope.sites.includes(site)));
    scope.from.push(from);
  };
  if (profile) for (const [secret, scope] of Object.entries(profileSecretScopes(profile.name, profile.profile))) add(secret, scope.sites, scope.from);
  const { secret_sites: declared = {}, ...rest } = spec;
  const start = hostOf(startUrl);
  if (start) for (const secret of secretNamesIn(JSON.stringify(rest))) add(secret, [start], "the task's start page");
  const result: Record<string, { sites: readonly string[]; from: string }> = Object.fromEntries(
    Object.entries(scopes).map(([secret, scope]) => [secret, { sites: scope.sites, from: scope.from.join(' and ') }]),
  );
  for (const [secret, sites] of Object.entries(declared)) result[secret] = { sites, from: "the task's secret_sites" };
  return result;
}
