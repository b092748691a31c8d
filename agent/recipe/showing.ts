import type { Page } from '@playwright/test';
import type { Handle } from './locate';

/**
 * For values the model stated: sets of elements showing each value (the smallest element with exactly that
 * text), in page order — one set per place the first value appears, the most compact first (items of one list
 * before the same names scattered through a page).
 */
export async function elementSetsShowing(page: Page, items: readonly string[]): Promise<Handle[][]> {
  const handle = await page.evaluateHandle(
    wanted => {
      const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
      const text = (e: Element) => norm((e as HTMLElement).innerText || e.textContent || '');
      const visible = (e: Element) => (e as HTMLElement).offsetParent !== null || e.getClientRects().length > 0;
      const matchesOf = (item: string): Element[] => {
        const found: Element[] = [];
        const walk = (e: Element): boolean => {
          let inner = false;
          for (const child of Array.from(e.children)) inner = walk(child) || inner;
          if (!inner && text(e) === item && visible(e)) {
            found.push(e);
            return true;
          }
          return inner;
        };
        walk(document.body);
        return found.slice(0, 6);
      };
      const depth = (e: Element | null) => {
        let d = 0;
        for (let n = e; n; n = n.parentElement) d++;
        return d;
      };
      const common = (a: Element, b: Element): Element => {
        let n: Element | null = a;
        while (n && !n.contains(b)) n = n.parentElement;
        return n ?? document.body;
      };
      const all = wanted.map(matchesOf);
      if (all.some(m => m.length === 0)) return [];
      const sets: Array<{ set: Element[]; size: number }> = [];
      for (const first of all[0]!.slice(0, 4)) {
        const set = [first];
        for (const options of all.slice(1)) {
          const best = options.filter(o => !set.includes(o)).sort((a, b) => depth(common(first, b)) - depth(common(first, a)))[0];
          if (!best) break;
          set.push(best);
        }
        if (set.length !== wanted.length) continue;
        const ordered = set.every((e, i) => i === 0 || (set[i - 1]!.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0);
        if (!ordered) continue;
        const root = set.reduce((acc, e) => common(acc, e));
        sets.push({ set, size: root.querySelectorAll('*').length });
      }
      return sets.sort((a, b) => a.size - b.size).map(s => s.set);
    },
    [...items],
  );
  const out: Handle[][] = [];
  for (const setHandle of (await handle.getProperties()).values()) {
    const elements = [...(await setHandle.getProperties()).values()].map(p => p.asElement()).filter((e): e is Handle => e !== null);
    if (elements.length === items.length) out.push(elements);
  }
  return out;
}

/** The most compact set of elements showing each value, if there is one. */
export async function elementsShowing(page: Page, items: readonly string[]): Promise<Handle[] | undefined> {
  return (await elementSetsShowing(page, items))[0];
}
