import type { ActionCall } from '../actions/core/dispatch';
import type { ActionResult } from '../actions/core/types';
import { ITEMS_KEY } from './discovery-spec';
import { type FoundLink, type ItemCollector, type Where } from './items';
import { withoutFragment } from '../browser/page-url';

export interface PendingItem {
  link: FoundLink;
  where: Where;
  /** What the model said about the item (record columns); empty for the deterministic walker. */
  reported: Record<string, unknown>;
}

export interface PageLog {
  page_number: number;
  url: string;
  new_items: number;
}

/**
 * Items travel through the agent's own save_progress action, so they land in the checkpoint and the action
 * log like any progress; they join the discovered list only once that action succeeded.
 */
export class ItemSaves {
  private readonly pending = new Map<ActionCall, PendingItem[]>();
  readonly pages: PageLog[] = [];

  constructor(readonly collector: ItemCollector) {}

  /** Items not saved yet, not already pending, within the cap. */
  fresh(items: readonly PendingItem[]): PendingItem[] {
    const inFlight = new Set([...this.pending.values()].flat().map(p => withoutFragment(p.link.url)));
    const room = Math.max(0, this.collector.maxItems - this.collector.size - inFlight.size);
    const seen = new Set<string>();
    const out: PendingItem[] = [];
    for (const item of items) {
      const key = withoutFragment(item.link.url);
      if (this.collector.has(key) || inFlight.has(key) || seen.has(key)) continue;
      seen.add(key);
      out.push(item);
    }
    return out.slice(0, room);
  }

  /** A save_progress call carrying the items as found on the page. */
  saveCall(items: PendingItem[], note: string, extra: Record<string, unknown> = {}): ActionCall {
    const data = {
      ...extra,
      // Compact: this is what the model sees as "data collected so far".
      [ITEMS_KEY]: items.map(({ link, where, reported }) => ({ url: link.url, page: where.pageNumber, ...reported })),
    };
    const call: ActionCall = { name: 'save_progress', args: { data, note } };
    this.pending.set(call, items);
    return call;
  }

  /** Called with the outcome of every action; returns how many items joined the list. */
  settle(call: ActionCall, result: ActionResult): number {
    const items = this.pending.get(call);
    if (!items) return 0;
    this.pending.delete(call);
    if (!result.success) return 0;
    let added = 0;
    for (const item of items) if (this.collector.add(item.link, item.where, item.reported)) added++;
    const first = items[0];
    if (first && added) {
      const last = this.pages[this.pages.length - 1];
      if (last && last.page_number === first.where.pageNumber && last.url === first.where.pageUrl) last.new_items += added;
      else this.pages.push({ page_number: first.where.pageNumber, url: first.where.pageUrl, new_items: added });
    }
    return added;
  }
}

export function doneCall(note: string): ActionCall {
  return { name: 'done', args: { extracted: {}, note } };
}
