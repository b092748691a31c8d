import type { Page } from '@playwright/test';

const NAME_STAND_IN = 'const __name = (f) => f;';

/**
 * Sends a function into the page as source text with a local stand-in for `__name`: under tsx, esbuild's
 * keepNames wraps named inner functions as `__name(fn, "fn")`, a helper that does not exist in the page.
 * With the stand-in, page-side code can use named helpers in every runner (tests, CLI, benchmarks).
 */
export function evaluateInPage<A, R>(page: Pick<Page, 'evaluate'>, fn: (arg: A) => R, arg: A): Promise<R> {
  return page.evaluate(`(() => { ${NAME_STAND_IN} return (${fn.toString()})(${JSON.stringify(arg)}); })()`) as Promise<R>;
}

/** Two page-side readers in one evaluate (one round trip): `{ first: firstFn(firstArg), second: secondFn(secondArg) }`. */
export function evaluateTwoInPage<A, R, B, S>(
  page: Pick<Page, 'evaluate'>,
  first: [(arg: A) => R, A],
  second: [(arg: B) => S, B],
): Promise<{ first: R; second: S }> {
  const call = ([fn, arg]: [(arg: never) => unknown, unknown]) => `(${fn.toString()})(${JSON.stringify(arg)})`;
  return page.evaluate(`(() => { ${NAME_STAND_IN} return { first: ${call(first as never)}, second: ${call(second as never)} }; })()`) as Promise<{
    first: R;
    second: S;
  }>;
}
