import * as fs from 'node:fs';

type FsFunctions = { [K in keyof typeof fs]: (typeof fs)[K] extends (...args: never[]) => unknown ? (typeof fs)[K] : never };
/** Replacements for some of node:fs's functions; each gets the real one to call through to. */
export type FsFaults = { [K in keyof FsFunctions]?: (real: FsFunctions[K]) => FsFunctions[K] };

/**
 * A fresh copy of the module at `file` whose node:fs functions are the given faulty ones, so a test can make a
 * write fail at the exact point it is about (a full disk half-way through, a rename refused). Every module gets its
 * own copy of node:fs's functions when it loads (import * compiles to a copy), so patching node:fs later reaches
 * no module: the functions are swapped while the copy loads, and put back at once. Other modules keep their copy.
 * While the module loads, the loader's own reads and writes reach the real functions; the faults act from then on.
 */
export function loadWithFsFaults<T>(file: string, faults: FsFaults): T {
  const realFs = require('node:fs') as Record<string, (...args: unknown[]) => unknown>;
  const resolved = require.resolve(file);
  const loaded = require.cache[resolved];
  const originals = Object.fromEntries(Object.keys(faults).map(name => [name, realFs[name]!]));
  let loading = true;
  try {
    for (const [name, fault] of Object.entries(faults)) {
      const original = originals[name]!;
      const faulty = (fault as (real: unknown) => (...args: unknown[]) => unknown)(original);
      realFs[name] = (...args) => (loading ? original : faulty)(...args);
    }
    delete require.cache[resolved];
    return require(resolved) as T;
  } finally {
    loading = false;
    Object.assign(realFs, originals);
    if (loaded) require.cache[resolved] = loaded;
    else delete require.cache[resolved];
  }
}
