import type { ElementHandle, Locator, Page } from '@playwright/test';
import { z } from 'zod';
import { ELEMENT_TIMEOUT_MS } from './core/limits';
import { ensurePointerReady } from './targets/preflight';
import { resolveTarget, TargetArg } from './targets/target';
import { ActionError, defineAction } from './core/types';
import { setTimeout as sleep } from 'node:timers/promises';

export const drag = defineAction({
  name: 'drag',
  productive: true,
  description: 'Drag an element onto another (reorder a list, move a card).',
  verifies:
    'Both elements are visible and not covered; afterwards the dragged element has moved (another list or another place; a list that re-rendered it is searched by its text) and its new place is reported — nothing moved is a failure.',
  schema: z.object({
    target: TargetArg,
    to: TargetArg.describe('The item whose place it takes, or a list, column or drop zone'),
  }),
  async handle({ target, to }, env) {
    const source = await resolveTarget(target, env);
    const destination = await resolveTarget(to, env);
    const from = source.locator.first();
    const onto = destination.locator.first();
    await ensurePointerReady(from, source.label, 'drag');
    await ensurePointerReady(onto, destination.label, 'drag');
    const handle = await from.elementHandle({ timeout: ELEMENT_TIMEOUT_MS });
    if (!handle) throw new ActionError(`${source.label} is no longer on the page — take a fresh look`);
    try {
      const before = await placeOf(handle);
      // Libraries that start a drag only after the pointer has travelled a little need the stepped drag;
      // Playwright's own drag is the fallback.
      for (const attempt of [() => steppedDrag(env.page, from, onto), () => from.dragTo(onto, { timeout: ELEMENT_TIMEOUT_MS })]) {
        await attempt();
        const after = await placeAfter(handle, before, env.page);
        if (after && moved(before, after)) {
          const description = `Dragged ${source.label} onto ${destination.label} — it is now item ${after.index} of ${after.count} in ${after.container}`;
          return { description, element: source.element, argElements: { to: destination.element } };
        }
      }
      throw new ActionError(
        `Dragged ${source.label} onto ${destination.label} but nothing moved (it is still item ${before.index} of ${before.count} in ${before.container}) — the page did not take the drop; try dropping onto the list or column itself, or look for move buttons or a menu on the item`,
      );
    } finally {
      await handle.dispose();
    }
  },
});

interface Place {
  text: string;
  container: string;
  index: number;
  count: number;
  /** Identifies the parent element across calls (a page-side counter stamped on it). */
  parent: string;
}

function moved(before: Place, after: Place): boolean {
  return after.parent !== before.parent || after.index !== before.index || after.container !== before.container;
}

/** Where the dragged element sits now; a list that re-rendered it is searched for its text. */
async function placeAfter(handle: ElementHandle, before: Place, page: Page): Promise<Place | undefined> {
  await sleep(100);
  const connected = await handle.evaluate(el => el.isConnected).catch(() => false);
  if (connected) return placeOf(handle);
  const again = page.getByText(before.text, { exact: true }).first();
  const fresh = await again.elementHandle({ timeout: 1_000 }).catch(() => null);
  if (!fresh) return undefined;
  try {
    return await placeOf(fresh);
  } finally {
    await fresh.dispose();
  }
}

function placeOf(handle: ElementHandle): Promise<Place> {
  return handle.evaluate(el => {
    const parent = el.parentElement;
    const key = Symbol.for('bwa.dragParentId');
    const stamps = window as unknown as Record<symbol, number>;
    const parentRecord = parent as unknown as Record<symbol, number> | null;
    if (parentRecord && parentRecord[key] === undefined) parentRecord[key] = stamps[key] = (stamps[key] ?? 0) + 1;
    const nameOf = (node: Element) =>
      node.getAttribute('aria-label') ||
      (node.getAttribute('aria-labelledby') ?? '')
        .split(/\s+/)
        .map(id => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
        .join(' ')
        .trim() ||
      node.querySelector(':scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > header')?.textContent?.trim() ||
      '';
    let container = '';
    for (let node = parent, depth = 0; node && depth < 4 && !container; node = node.parentElement, depth++) {
      const name = nameOf(node).replace(/\s+/g, ' ').slice(0, 60);
      if (name) container = JSON.stringify(name);
    }
    const siblings = parent ? [...parent.children] : [el];
    return {
      text: ((el as HTMLElement).innerText || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 100),
      container: container || (parent ? `<${parent.tagName.toLowerCase()}${parent.id ? ` id="${parent.id}"` : ''}>` : 'the page'),
      index: siblings.indexOf(el) + 1,
      count: siblings.length,
      parent: String(parentRecord?.[key] ?? 0),
    };
  });
}

/** Press, travel a few pixels (past the drag threshold), glide to the target, pause over it, release. */
async function steppedDrag(page: Page, from: Locator, onto: Locator): Promise<void> {
  await from.scrollIntoViewIfNeeded({ timeout: ELEMENT_TIMEOUT_MS });
  const start = await centre(from);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 6, start.y + 6, { steps: 3 });
  const end = await centre(onto);
  await page.mouse.move(end.x, end.y, { steps: 15 });
  await sleep(80);
  await page.mouse.move(end.x + 1, end.y + 1);
  await page.mouse.up();
}

async function centre(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox({ timeout: ELEMENT_TIMEOUT_MS });
  if (!box) throw new ActionError('The element has no position on the page (hidden) — open the part of the page that holds it');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}
