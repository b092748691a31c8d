import type { Browser, BrowserContext } from '@playwright/test';
import { installEvaluateShim } from '../browser/evaluate-shim';
import { authStatePath } from '../task/auth-profile';
import type { TaskSpec } from '../task/schema';

/** The context a discovery browses in: the same viewport and colour scheme as the tests, the task's login state. */
export async function discoveryContext(browser: Browser, spec: TaskSpec): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
    ...(spec.auth_profile ? { storageState: authStatePath(spec.auth_profile) } : {}),
  });
  await installEvaluateShim(context);
  return context;
}
