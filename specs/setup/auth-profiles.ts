import type { Page } from '@playwright/test';

/**
 * How to sign in for each auth_profile a task may name. A profile lists the secrets it needs (read from the
 * environment as SECRET_<NAME>, usually from .env) and a login that leaves the page signed in.
 * Site knowledge lives here and in tasks/, never in agent/.
 */
export interface AuthProfile {
  /** Secret names without the SECRET_ prefix. */
  secrets: readonly string[];
  login(page: Page, secrets: Readonly<Record<string, string>>): Promise<void>;
}

export const AUTH_PROFILES: Readonly<Record<string, AuthProfile>> = {
  peoplesearch: {
    secrets: ['PEOPLESEARCH_USER', 'PEOPLESEARCH_PASSWORD'],
    async login(page, secrets) {
      await page.goto(`${process.env.PEOPLESEARCH_URL ?? 'http://127.0.0.1:4106'}/login`);
      await page.getByLabel('Email').fill(secrets.PEOPLESEARCH_USER!);
      await page.getByLabel('Password').fill(secrets.PEOPLESEARCH_PASSWORD!);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(url => !url.pathname.startsWith('/login'), { timeout: 10_000 }).catch(async () => {
        const alert = await page.getByRole('alert').textContent().catch(() => null);
        throw new Error(`auth_profile "peoplesearch": sign-in was refused${alert ? ` (${alert.trim()})` : ''} — check SECRET_PEOPLESEARCH_USER / SECRET_PEOPLESEARCH_PASSWORD`);
      });
    },
  },
};
