import type { BrowserContext } from '@playwright/test';

/**
 * Marks every element the page gives a click-like listener (click, mousedown, mouseup, pointerdown, pointerup,
 * touchstart) in a WeakSet on the window, so observe() can give a ref to a span or a div that takes clicks with no
 * pointer cursor and no role (a stepper's "+", a calendar's Prev). Installed before any page script runs; it only
 * records, and the wrapper is a Proxy, so the page sees the native addEventListener.
 */
/** The key under which the marks sit on the page's window (observe() reads them there). */
export const CLICK_LISTENERS_KEY = 'bwa.clickListeners';

export function clickListenerMarksScript(key: string): string {
  return `(() => {
  const key = Symbol.for(${JSON.stringify(key)});
  if (window[key]) return;
  const marked = new WeakSet();
  Object.defineProperty(window, key, { value: marked });
  const types = new Set(['click', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart']);
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = new Proxy(add, {
    apply(target, self, args) {
      if (types.has(args[0]) && self instanceof Element) marked.add(self);
      return Reflect.apply(target, self, args);
    },
  });
})();`;
}

export async function installClickListenerMarks(context: BrowserContext): Promise<void> {
  await context.addInitScript(clickListenerMarksScript(CLICK_LISTENERS_KEY));
}
