import type { ElementHandle, Page } from '@playwright/test';

export interface ScrollPosition {
  top: number;
  max: number;
  atEnd: boolean;
  /** How many times the content grew at the end while scrolling (a lazy list appending its next batch). */
  loads: number;
  /** The distance asked for ran out, or the time did, while the list was still growing: more may come. */
  mayLoadMore: boolean;
}

/** Lazy lists fetch the next batch when the end comes into view; give each batch this long to arrive. */
const GROWTH_WAIT_MS = 1_500;
/** One scroll never spends longer than this following a list that keeps growing. */
export const SCROLL_BUDGET_MS = 15_000;

interface ScrollRequest {
  screens: number;
  growthWaitMs: number;
  budgetMs: number;
  /** Scroll the document rather than the element's nearest scrollable container. */
  wholePage: boolean;
}

/**
 * Scrolls by the distance asked for. When the end comes first and the content then grows, it goes on down what is
 * left of that distance: "50 screens down" on a lazy feed loads the batches those screens hold, in one action.
 * Runs in the page, so it is self-contained. Null when the element sits in no scrollable container.
 */
async function scrollInPage(element: Element, { screens, growthWaitMs, budgetMs, wholePage }: ScrollRequest): Promise<ScrollPosition | null> {
  let scroller: Element | null = null;
  if (!wholePage) {
    const isScrollable = (el: Element) => /(auto|scroll|overlay)/.test(getComputedStyle(el).overflowY) && el.scrollHeight > el.clientHeight + 1;
    let node: Element | null = element;
    while (node && node !== document.documentElement && node !== document.body && !isScrollable(node)) node = node.parentElement;
    if (!node || node === document.documentElement || node === document.body) return null;
    scroller = node;
  }
  const root = scroller ?? document.scrollingElement ?? document.documentElement;
  const viewport = () => (scroller ? scroller.clientHeight : window.innerHeight);
  const top = () => (scroller ? scroller.scrollTop : window.scrollY);
  const max = () => Math.max(0, root.scrollHeight - viewport());
  const scrollBy = (px: number) => (scroller ?? window).scrollBy({ top: px, behavior: 'instant' });
  const atEnd = () => top() >= max() - 2;
  const target = top() + screens * viewport();
  const deadline = Date.now() + budgetMs;
  scrollBy(screens * viewport());
  let loads = 0;
  let mayLoadMore = false;
  while (screens > 0 && atEnd()) {
    const before = max();
    const waitEnds = Date.now() + growthWaitMs;
    const until = Math.min(deadline, waitEnds);
    while (Date.now() < until && max() <= before + 1) await new Promise(resolve => setTimeout(resolve, 100));
    if (max() <= before + 1) {
      // Out of time before the batch had its full wait: the list may not be over.
      mayLoadMore = until < waitEnds;
      break;
    }
    loads++;
    const left = target - top();
    if (left <= 1 || Date.now() >= deadline) {
      mayLoadMore = true;
      break;
    }
    scrollBy(left);
  }
  return { top: top(), max: max(), atEnd: atEnd() && !mayLoadMore, loads, mayLoadMore };
}

export async function scrollPage(page: Page, screens: number): Promise<ScrollPosition> {
  const root = await page.evaluateHandle(() => document.scrollingElement ?? document.documentElement);
  try {
    return (await root.evaluate(scrollInPage, request(screens, true)))!;
  } finally {
    await root.dispose().catch(() => {});
  }
}

/** Scrolls the element's nearest scrollable container (itself included); null when there is none. */
export async function scrollContainer(handle: ElementHandle<Element>, screens: number): Promise<ScrollPosition | null> {
  return handle.evaluate(scrollInPage, request(screens, false));
}

function request(screens: number, wholePage: boolean): ScrollRequest {
  return { screens, growthWaitMs: GROWTH_WAIT_MS, budgetMs: SCROLL_BUDGET_MS, wholePage };
}
