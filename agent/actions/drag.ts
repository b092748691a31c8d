import type { Locator, Page } from '@playwright/test';
import { z } from 'zod';
import { ELEMENT_TIMEOUT_MS } from './core/limits';
import { itemAround, moved, placeNow, type ListPlace } from './targets/list-item';
import { ensurePointerReady } from './targets/preflight';
import { resolveTarget, TargetArg } from './targets/target';
import { ActionError, defineAction } from './core/types';
import { setTimeout as sleep } from 'node:timers/promises';

export const drag = defineAction({
  name: 'drag',
  productive: true,
  description: 'Drag an element onto another (reorder a list, move a card).',
  verifies:
    'Both elements are visible and not covered; afterwards the order the page shows has changed — the item is the list member around the element (a row, not the name inside it), a redrawn list is searched for its text — and its new place and the order are reported; an item that moves by position (a card on a board) is reported with where it went; nothing moved is a failure that says what was tried and what the page says now.',
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
    if (!handle) throw new ActionError(`${source.label} is no longer on the page`, false, { model: 'take a fresh look at the page state' });
    const { item, place: before } = await itemAround(handle);
    const textBefore = await pageLines(env.page);
    const tried: string[] = [];
    try {
      // Libraries that start a drag only after the pointer has travelled a little need the stepped drag;
      // Playwright's own drag is the fallback.
      const attempts = [
        async () => tried.push(await steppedDrag(env.page, from, onto)),
        async () => {
          await from.dragTo(onto, { timeout: ELEMENT_TIMEOUT_MS });
          tried.push('a drag and drop by HTML5 drag events');
        },
      ];
      for (const attempt of attempts) {
        await attempt();
        await sleep(SETTLE_MS);
        const after = await placeNow(env.page, item, before);
        const done = { element: source.element, argElements: { to: destination.element } };
        if (!after) {
          const description = `Dragged ${source.label} onto ${destination.label} — the page redrew the list and no one item shows its text ${JSON.stringify(before.text)} now; the next page state shows where it went`;
          return { description, ...done };
        }
        if (moved(before, after)) {
          const description = `Dragged ${source.label} onto ${destination.label} — it is now item ${after.index} of ${after.count} in ${after.container}${orderText(after)}`;
          return { description, ...done };
        }
        // A card on a board moves by position, not in an order: its place on the page is what shows the drop.
        if (shifted(before, after)) {
          const description = `Dragged ${source.label} onto ${destination.label} — it moved on the page from ${at(before.box)} to ${at(after.box)} (its place among its siblings is the same: it moves by position)`;
          return { description, ...done, shownChange: 'target' as const };
        }
      }
      const says = newLines(textBefore, await pageLines(env.page));
      throw new ActionError(
        `Dragged ${source.label} onto ${destination.label} but nothing moved: it is still item ${before.index} of ${before.count} in ${before.container}, at ${at(before.box)}. Tried ${tried.join(', then ')}; ${says.length ? `the page now says ${says.map(line => JSON.stringify(line)).join(', ')}` : 'the page shows nothing new'} — try dropping onto the list or column itself, or look for move buttons or a menu on the item`,
      );
    } finally {
      await Promise.all([handle.dispose(), item !== handle ? item.dispose() : undefined]);
    }
  },
});

/** Handlers that reorder on the drop (and lists that redraw after it) run just after the release. */
const SETTLE_MS = 100;
const ORDER_SHOWN = 8;

/** The order the page now shows, so the model need not look again to know where everything went. */
function orderText(place: ListPlace): string {
  if (place.count < 2) return '';
  const shown = place.order.slice(0, ORDER_SHOWN).map(text => JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text));
  return ` (order now: ${shown.join(', ')}${place.count > ORDER_SHOWN ? ', …' : ''})`;
}

/** Press, travel a few pixels (past the drag threshold), glide to the target, pause over it, release; says what it did. */
async function steppedDrag(page: Page, from: Locator, onto: Locator): Promise<string> {
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
  return `a mouse drag (pressed at ${at(start)}, 6 px, 15 steps to ${at(end)}, a pause, released)`;
}

/** Its centre moved by more than this: it sits elsewhere on the page. */
const SHIFT_PX = 4;

function shifted(before: ListPlace, after: ListPlace): boolean {
  if (!before.box || !after.box) return false;
  const centreOf = (box: NonNullable<ListPlace['box']>) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
  const a = centreOf(before.box);
  const b = centreOf(after.box);
  return Math.hypot(a.x - b.x, a.y - b.y) > SHIFT_PX;
}

/** `(120, 340)` in CSS pixels: the centre of a box, or a point. */
function at(where: { x: number; y: number; width?: number; height?: number } | undefined): string {
  if (!where) return 'an unknown place';
  return `(${Math.round(where.x + (where.width ?? 0) / 2)}, ${Math.round(where.y + (where.height ?? 0) / 2)})`;
}

/** The lines of text the page shows, to say afterwards what it says that it did not before. */
function pageLines(page: Page): Promise<string[]> {
  return page
    .evaluate(() =>
      (document.body?.innerText ?? '')
        .split('\n')
        .map(line => line.trim())
        .filter(Boolean),
    )
    .catch(() => []);
}

const NEW_LINES_SHOWN = 2;

function newLines(before: string[], after: string[]): string[] {
  const was = new Set(before);
  return after
    .filter(line => !was.has(line))
    .slice(0, NEW_LINES_SHOWN)
    .map(line => (line.length > 120 ? `${line.slice(0, 119)}…` : line));
}

async function centre(locator: Locator): Promise<{ x: number; y: number }> {
  const box = await locator.boundingBox({ timeout: ELEMENT_TIMEOUT_MS });
  if (!box) throw new ActionError('The element has no position on the page (hidden) — open the part of the page that holds it');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}
