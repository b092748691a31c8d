import type { Page } from '@playwright/test';

/**
 * Sends a function into the page as source text with a local stand-in for `__name`: under tsx, esbuild's
 * keepNames wraps named inner functions as `__name(fn, "fn")`, a helper that does not exist in the page.
 * With the stand-in, page-side code can use named helpers in every runner (tests, CLI, benchmarks).
 */
export function evaluateInPage<A, R>(page: Pick<Page, 'evaluate'>, fn: (arg: A) => R, arg: A): Promise<R> {
  return page.evaluate(`(() => { const __name = (f) => f; return (${fn.toString()})(${JSON.stringify(arg)}); })()`) as Promise<R>;
}
