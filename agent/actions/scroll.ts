import { z } from 'zod';
import { SCROLL_BUDGET_MS, scrollContainer, scrollPage, type ScrollPosition } from './targets/scroll-position';
import { resolveTarget, TargetArg } from './targets/target';
import { defineAction } from './core/types';

export const scroll = defineAction({
  name: 'scroll',
  historyWeight: 0,
  mayTurnPage: true,
  replay: 'optional',
  description: 'Scroll the page or a container.',
  verifies: `Reports where it is (pixels and percent) and whether the end was reached. A list that grows at its end (lazy loading) is followed down the rest of the distance asked, for up to ${SCROLL_BUDGET_MS / 1000} s, and the report says how often it grew.`,
  schema: z.object({
    direction: z.enum(['up', 'down']).describe('Which way'),
    amount: z.number().positive().max(50).optional().describe('Screen heights (default 1; 50 = to the end)'),
    target: TargetArg.optional().describe('A container (default: the page)'),
  }),
  async handle({ direction, amount, target }, env) {
    const screens = (amount ?? 1) * (direction === 'up' ? -1 : 1);
    if (!target) return { description: `Scrolled the page ${direction}: ${describePosition(await scrollPage(env.page, screens), direction)}` };
    const resolved = await resolveTarget(target, env);
    const handle = await resolved.locator.first().elementHandle({ timeout: 5_000 });
    try {
      const position = await scrollContainer(handle, screens);
      if (position)
        return { description: `Scrolled ${resolved.label} ${direction}: ${describePosition(position, direction)}`, element: resolved.element };
      const page = await scrollPage(env.page, screens);
      return {
        description: `${resolved.label} is not inside a scrollable container, so the page was scrolled ${direction}: ${describePosition(page, direction)}`,
        element: resolved.element,
      };
    } finally {
      await handle.dispose().catch(() => {});
    }
  },
});

function describePosition(position: ScrollPosition, direction: 'up' | 'down'): string {
  const percent = position.max > 0 ? Math.round((position.top / position.max) * 100) : 100;
  const where = `at ${Math.round(position.top)} of ${Math.round(position.max)} px (${percent}%)`;
  const loaded = position.loads > 1 ? `more content loaded at the end ${position.loads} times` : 'more content loaded at the end';
  if (position.mayLoadMore) return `${where}; ${loaded} — scroll again to continue`;
  if (position.loads > 0) return position.atEnd ? `${where}; ${loaded}, then it reached the end` : `${where}; ${loaded}`;
  if (direction === 'down' && position.atEnd) return `${where}; reached the end`;
  if (direction === 'up' && position.top <= 0) return `${where}; at the top`;
  return where;
}
