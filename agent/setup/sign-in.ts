import type { Browser } from '@playwright/test';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dispatch } from '../actions/core/dispatch';
import { isUrlAllowed } from '../browser/domains';
import { installEvaluateShim } from '../browser/evaluate-shim';
import { ContextTabs } from '../browser/context-tabs';
import { placeholderValuesFromEnv, type EnvSource } from '../env/read';
import { SecretMasker } from '../secrets/masker';
import { unsetPlaceholders, variableOf } from '../secrets/placeholders';
import { resolveForSite } from '../secrets/scope';
import { recipeStepCall } from '../decide/recipe-decider';
import { EvidenceStore } from '../evidence/store';
import { settings } from '../settings';
import { authStatePath, type AuthProfile } from '../task/auth-profile';
import { profileSecretScopes } from '../task/secret-scope';

const SIGN_IN_TIMEOUT_MS = 60_000;
const CHECK_SECONDS = 10;

/** SECRET_* and ENV_* variables the profile needs that the environment does not set. */
export function missingSecrets(profile: AuthProfile, source?: EnvSource): string[] {
  return unsetPlaceholders(JSON.stringify(profile.steps), placeholderValuesFromEnv(source)).map(use => variableOf(use.kind, use.name));
}

/**
 * Signs in once in a fresh context by replaying the profile's steps through the action dispatcher, checks that it
 * worked, and saves the storage state where the tasks' contexts load it. Throws a reason naming the profile.
 */
export async function signIn(browser: Browser, name: string, profile: AuthProfile, source?: EnvSource): Promise<string> {
  const missing = missingSecrets(profile, source);
  if (missing.length) throw new Error(`auth_profile "${name}" needs ${missing.join(' and ')} — set ${missing.length > 1 ? 'them' : 'it'} in .env`);
  const values = placeholderValuesFromEnv(source);
  const masker = SecretMasker.of(values.secrets);
  const scopes = profileSecretScopes(name, profile);
  const allowed = profile.allowed_domains ?? [new URL(profile.start_url).host];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'bwa-sign-in-'));
  const context = await browser.newContext();
  try {
    await installEvaluateShim(context);
    const page = await context.newPage();
    const actionEnv = {
      page,
      context,
      store: new EvidenceStore(scratch, masker),
      signal: AbortSignal.timeout(SIGN_IN_TIMEOUT_MS),
      policy: {
        isAllowedUrl: (url: string) => isUrlAllowed(url, allowed),
        resolvePlaceholders: (text: string, url: string) => resolveForSite(text, url, values, scopes),
        inputDir: scratch,
        beforeNavigation: async () => {},
        maxDownloadBytes: settings.maxDownloadBytes,
      },
      tabs: new ContextTabs(context, page),
      elements: new Map(),
      reader: 'recipe' as const,
      step: 0,
    };
    const steps = [{ action: 'goto', url: profile.start_url }, ...profile.steps];
    for (const [index, step] of steps.entries()) {
      const result = await dispatch(recipeStepCall(step, {}, `auth profile ${name} step ${index}`), {
        ...actionEnv,
        page: actionEnv.tabs.active,
        step: index + 1,
      });
      if (!result.success && !step.optional)
        throw new Error(
          masker.text(
            `auth_profile "${name}": sign-in step ${index === 0 ? '(open start_url)' : index - 1} (${step.action}) failed — ${result.error ?? result.description}`,
          ),
        );
    }
    await proveSignedIn(name, profile, actionEnv).catch((error: unknown) => {
      // The page's address can carry what the form sent.
      throw new Error(masker.text(error instanceof Error ? error.message : String(error)));
    });
    const file = authStatePath(name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await context.storageState({ path: file });
    return file;
  } finally {
    await context.close().catch(() => {});
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

async function proveSignedIn(name: string, profile: AuthProfile, env: Parameters<typeof dispatch>[1]): Promise<void> {
  const page = (env.tabs as ContextTabs).active;
  if (profile.check.visible) {
    const seen = await dispatch({ name: 'wait', args: { target: profile.check.visible, seconds: CHECK_SECONDS } }, { ...env, page });
    if (!seen.success)
      throw new Error(`auth_profile "${name}": sign-in check failed — ${seen.error ?? seen.description} (at ${page.url()}; wrong credentials?)`);
  }
  if (profile.check.url !== undefined) {
    const pattern = new RegExp(profile.check.url);
    await page.waitForURL(url => pattern.test(url.href), { timeout: CHECK_SECONDS * 1000 }).catch(() => {});
    if (!pattern.test(page.url()))
      throw new Error(`auth_profile "${name}": sign-in check failed — the page is ${page.url()}, not /${profile.check.url}/ (wrong credentials?)`);
  }
}
