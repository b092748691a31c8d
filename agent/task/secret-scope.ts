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
  const start = hostOf(startUrl);
  if (start) for (const secret of startPageSecrets(spec)) add(secret, [start], "the task's start page");
  const result: Record<string, { sites: readonly string[]; from: string }> = Object.fromEntries(
    Object.entries(scopes).map(([secret, scope]) => [secret, { sites: scope.sites, from: scope.from.join(' and ') }]),
  );
  for (const [secret, sites] of Object.entries(spec.secret_sites ?? {})) result[secret] = { sites, from: "the task's secret_sites" };
  return result;
}

/** The secrets the task itself names that its secret_sites does not place: typed on the sample's start page host. */
function startPageSecrets(spec: TaskSpec): string[] {
  const { secret_sites: declared = {}, ...rest } = spec;
  return secretNamesIn(JSON.stringify(rest)).filter(secret => !(secret in declared));
}

/** Where an exported spec may type a secret: fixed sites, and whether each row's start page host is one too. */
export interface ExportedSecretSites {
  sites: readonly string[];
  start: boolean;
}

/**
 * The sites taskSecretScopes gives each of the named secrets, with the start page's host left to each row of the
 * exported spec (a start URL may be a template of the row).
 */
export function exportedSecretSites(
  spec: TaskSpec,
  secrets: readonly string[],
  profile?: { name: string; profile: AuthProfile },
): Record<string, ExportedSecretSites> {
  const fixed = taskSecretScopes(spec, '', profile);
  const onStart = startPageSecrets(spec);
  return Object.fromEntries(secrets.map(secret => [secret, { sites: fixed[secret]?.sites ?? [], start: onStart.includes(secret) }]));
}

/** The secrets a sample of the task may type: those its spec or its auth profile's steps name. */
export function secretsTyped(spec: TaskSpec, profile?: AuthProfile): string[] {
  return [...new Set([...secretNamesIn(JSON.stringify(spec)), ...(profile ? profileSecretNames(profile) : [])])];
}
