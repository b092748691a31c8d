import type { ElementHandle, Page } from '@playwright/test';

export interface ScrollPosition {
  top: number;
  max: number;
  atEnd: boolean;
  /** The end was reached and the content then grew (a lazy list appended its next batch). */
  loadedMore: boolean;
}

/** Lazy lists fetch the next batch when the end comes into view; give them this long to grow. */
const GROWTH_WAIT_MS = 1_500;

interface ScrollRequest {
  screens: number;
  waitMs: number;
}

export async function scrollPage(page: Page, screens: number): Promise<ScrollPosition> {
  return page.evaluate(async ({ screens: s, waitMs }) => {
    const root = document.scrollingElement ?? document.documentElement;
    const read = () => {
      const max = Math.max(0, root.scrollHeight - window.innerHeight);
      return { top: window.scrollY, max, atEnd: window.scrollY >= max - 2 };
    };
    window.scrollBy({ top: s * window.innerHeight, behavior: 'instant' });
    const first = read();
    if (s <= 0 || !first.atEnd) return { ...first, loadedMore: false };
    const until = Date.now() + waitMs;
    while (Date.now() < until && read().max <= first.max + 1) await new Promise(resolve => setTimeout(resolve, 100));
    const last = read();
    return { ...last, loadedMore: last.max > first.max + 1 };
  }, { screens, waitMs: GROWTH_WAIT_MS } satisfies ScrollRequest);
}

/** Scrolls the element's nearest scrollable container (itself included); null when there is none. */
export async function scrollContainer(handle: ElementHandle<Element>, screens: number): Promise<ScrollPosition | null> {
  return handle.evaluate(async (element, { screens: s, waitMs }) => {
    let node: Element | null = element as Element;
    const isScrollable = (el: Element) => /(auto|scroll|overlay)/.test(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + 1;
    while (node && node !== document.documentElement && node !== document.body && !isScrollable(node)) node = node.parentElement;
    if (!node || node === document.documentElement || node === document.body) return null;
    const container = node;
    const read = () => {
      const max = Math.max(0, container.scrollHeight - container.clientHeight);
      return { top: container.scrollTop, max, atEnd: container.scrollTop >= max - 2 };
    };
    container.scrollBy({ top: s * container.clientHeight, behavior: 'instant' });
    const first = read();
    if (s <= 0 || !first.atEnd) return { ...first, loadedMore: false };
    const until = Date.now() + waitMs;
    while (Date.now() < until && read().max <= first.max + 1) await new Promise(resolve => setTimeout(resolve, 100));
    const last = read();
    return { ...last, loadedMore: last.max > first.max + 1 };
  }, { screens, waitMs: GROWTH_WAIT_MS } satisfies ScrollRequest);
}
