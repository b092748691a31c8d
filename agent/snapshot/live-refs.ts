import type { Locator, Page } from '@playwright/test';
import { untraced } from './untraced';
import { observe } from './observe';
import { parseSnapshot } from './raw';
import { identitiesOf, refMemoryOf, topDocumentOf } from './stable-refs';

/**
 * Where the action layer turns a printed ref into an element. A printed ref may stand for a control the page
 * redrew since (stable-refs.ts): its current Playwright ref is looked up in the page's memory.
 */
export function refLocator(page: Page, printed: string): Locator {
  return page.getByRef(liveRef(page, printed));
}

/** Playwright's current ref for a printed one. */
export function liveRef(page: Page, printed: string): string {
  return refMemoryOf(page).live(printed);
}

/**
 * The control behind a printed ref is gone from the page: a fresh AI snapshot of the page says whether a redrawn
 * node took its place (same role, name and place). True when the ref now resolves again. Only refs this page's
 * memory printed are looked for; the snapshot keeps every other printed ref valid (Playwright keeps a node's ref
 * while the node stays).
 */
export async function relocateRef(page: Page, printed: string, signal?: AbortSignal): Promise<boolean> {
  const memory = refMemoryOf(page);
  if (!memory.knows(printed)) return false;
  const before = memory.live(printed);
  // Untraced, like observe(): the snapshot holds every field's value.
  const [json, scroll] = await untraced(page, () =>
    Promise.all([page.ariaSnapshotJSON({ mode: 'ai', boxes: true, signal }), page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }))]),
  );
  const roots = parseSnapshot(json);
  const identities = identitiesOf(roots, scroll);
  memory.assign(identities, new Map(), topDocumentOf(roots));
  const now = memory.live(printed);
  return now !== before && identities.has(now);
}

/**
 * The element an added clickable (`c<N>`) named is no longer on its path (the page redrew it, or drew another item
 * there): a fresh look finds the control the ref stands for — the same element elsewhere, or the one that replaced it
 * (stable-refs.ts). Undefined when the page no longer has it.
 */
export async function relocateAddedRef(
  page: Page,
  printed: string,
  signal?: AbortSignal,
): Promise<{ selector: string; element?: string } | undefined> {
  const node = (await observe(page, { signal })).refs.get(printed);
  return node?.selector ? { selector: node.selector, element: node.element } : undefined;
}
