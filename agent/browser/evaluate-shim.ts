import type { BrowserContext } from '@playwright/test';

/**
 * Under tsx (the `bwa` CLI, benchmarks), esbuild's keepNames wraps named inner functions as `__name(fn, "fn")`, and
 * page.evaluate callbacks carry that call into the page, where the helper does not exist. The Playwright test
 * runner compiles without it; everywhere else the page gets a harmless stand-in.
 */
export const TSX_NAME_HELPER = 'globalThis.__name ??= (fn) => fn;';

export async function installEvaluateShim(context: BrowserContext): Promise<void> {
  await context.addInitScript(TSX_NAME_HELPER);
  await Promise.all(context.pages().map(page => page.evaluate(TSX_NAME_HELPER).catch(() => {})));
}
