import type { BrowserContext } from '@playwright/test';

/**
 * Keeps the closed shadow roots a page attaches, in a WeakMap from host to root on the window, so that when the
 * accessibility tree shows nothing (it cannot see inside them) observe() can still say so and list their text for
 * `find`. Installed before any page script runs; it only records, and the wrapper is a Proxy, so the page gets its
 * closed root exactly as it asked.
 */
/** The key under which the roots sit on the page's window (hidden-text.ts reads them there). */
export const CLOSED_SHADOW_ROOTS_KEY = 'bwa.closedShadowRoots';

export function closedShadowRootsScript(key: string): string {
  return `(() => {
  const key = Symbol.for(${JSON.stringify(key)});
  if (window[key]) return;
  const roots = new WeakMap();
  Object.defineProperty(window, key, { value: roots });
  Element.prototype.attachShadow = new Proxy(Element.prototype.attachShadow, {
    apply(target, self, args) {
      const root = Reflect.apply(target, self, args);
      if (args[0] && args[0].mode === 'closed') roots.set(self, root);
      return root;
    },
  });
})();`;
}

export async function installClosedShadowRootMarks(context: BrowserContext): Promise<void> {
  await context.addInitScript(closedShadowRootsScript(CLOSED_SHADOW_ROOTS_KEY));
}
