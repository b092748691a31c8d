import type { Browser, BrowserContext } from '@playwright/test';
import { authStatePath } from '../task/auth';
import type { TaskSpec } from '../task/schema';

/**
 * Under tsx (the `bwa` CLI), esbuild's keepNames wraps named inner functions as `__name(fn, "fn")`, and
 * page.evaluate callbacks carry that call into the page, where the helper does not exist. The Playwright
 * test runner compiles without it; outside it, the page gets a harmless stand-in.
 */
const TSX_NAME_HELPER = 'globalThis.__name ??= (fn) => fn;';

/** The context a discovery browses in: the same viewport and colour scheme as the tests, the task's login state. */
export async function discoveryContext(browser: Browser, spec: TaskSpec): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
    ...(spec.auth_profile ? { storageState: authStatePath(spec.auth_profile) } : {}),
  });
  await context.addInitScript(TSX_NAME_HELPER);
  return context;
}
