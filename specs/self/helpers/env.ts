import { test } from '@playwright/test';

/** Variables to set for a while: a string sets one, undefined removes it. */
export type EnvChanges = Readonly<Record<string, string | undefined>>;

/**
 * Sets the variables in this process's environment and returns what puts them back as they were. Assigning
 * undefined to process.env would store the text "undefined", so a removal deletes the variable.
 */
export function setEnv(changes: EnvChanges): () => void {
  const before = Object.fromEntries(Object.keys(changes).map(name => [name, process.env[name]]));
  apply(changes);
  return () => apply(before);
}

/** Runs `body` with the variables set, then puts them back, also when it throws or its promise rejects. */
export function withEnv<T>(changes: EnvChanges, body: () => T): T {
  const restore = setEnv(changes);
  let result: T;
  try {
    result = body();
  } catch (error) {
    restore();
    throw error;
  }
  if (result instanceof Promise) return result.finally(restore) as T;
  restore();
  return result;
}

function apply(changes: EnvChanges): void {
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}

/**
 * For the tests of a file or describe block: the variables set in beforeAll (a function is called then, so a
 * temporary folder it names is made only when the tests run) and put back in afterAll.
 */
export function useEnv(changes: EnvChanges | (() => EnvChanges)): void {
  let restore: (() => void) | undefined;
  test.beforeAll(() => {
    restore = setEnv(typeof changes === 'function' ? changes() : changes);
  });
  test.afterAll(() => restore?.());
}
