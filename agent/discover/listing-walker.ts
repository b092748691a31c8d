import type { Page } from '@playwright/test';
import type { ActionCall } from '../actions/core/dispatch';
import type { ActionResult } from '../actions/core/types';
import type { Decider, Decision } from '../decide/types';
import type { SemanticLocator } from '../task/locator-schema';
import type { DiscoverBlock } from '../task/schema';
import { doneCall, type ItemSaves } from './item-saves';
import { countItems, inspectControl, readItemLinks } from './link-reader';
import { setTimeout as sleep } from 'node:timers/promises';

export type WalkMode = 'pagination' | 'load_more' | 'infinite_scroll';

const GROWTH_TIMEOUT_MS = 4_000;
/** The retry scroll only catches a list that missed the first scroll event: its batch is already on its way. */
const QUIET_GROWTH_TIMEOUT_MS = 1_000;
const GROWTH_POLL_MS = 100;
/** A lazy list sometimes needs a second scroll event after its last batch rendered. */
const QUIET_SCROLLS_BEFORE_END = 2;

/**
 * Discovery without a model: reads the item links with the task's `item_link` locator and moves through the
 * listing with its `next` control — following a next-page link, clicking load-more, or scrolling — through
 * the same actions (goto, click, scroll, save_progress, done) a model would use.
 */
export class ListingWalker implements Decider {
  readonly kind = 'recipe';
  readonly needsView = false;
  mode: WalkMode | undefined;
  stopReason = '';
  private pageNumber = 1;
  private phase: 'collect' | 'advance' = 'collect';
  private countBeforeAdvance = 0;
  private quietScrolls = 0;
  private readonly visited = new Set<string>();
  private readonly advances = new Set<ActionCall>();
  private failure: string | undefined;

  constructor(
    private readonly block: DiscoverBlock & { item_link: SemanticLocator },
    private readonly saves: ItemSaves,
    private readonly activePage: () => Page,
    private readonly attributes: readonly string[],
  ) {}

  async decide(): Promise<Decision> {
    if (this.failure) return { actions: [], stuck: this.failure };
    const page = this.activePage();
    if (this.phase === 'advance') return this.advance(page);
    this.phase = 'advance';
    if (this.pageNumber === 1) this.visited.add(withoutHash(page.url()));
    if (this.pageNumber > 1 && this.mode !== 'pagination') await this.waitForGrowth(page);
    const links = await readItemLinks(page, this.block.item_link, this.attributes);
    const where = { pageUrl: page.url(), pageNumber: this.pageNumber };
    const fresh = this.saves.fresh(links.map(link => ({ link, where, reported: {} })));
    if (fresh.length) {
      this.quietScrolls = 0;
      return { actions: [this.saves.saveCall(fresh, `page ${this.pageNumber}: ${fresh.length} new item(s) of ${links.length} matched`)] };
    }
    if (this.pageNumber === 1)
      return this.stop(links.length ? 'every item on the first page was already saved' : 'no element on the first page matches item_link');
    if (this.saves.collector.full) return this.stop(`max_items (${this.saves.collector.maxItems}) reached`);
    if (this.mode === 'infinite_scroll' && ++this.quietScrolls < QUIET_SCROLLS_BEFORE_END) {
      this.pageNumber -= 1;
      return this.advance(page);
    }
    return this.stop(this.mode === 'pagination' ? `page ${this.pageNumber} has no new items` : 'no new items appeared');
  }

  observe(call: ActionCall, result: ActionResult): void {
    this.saves.settle(call, result);
    if (this.advances.has(call) && !result.success)
      this.failure = `could not reach page ${this.pageNumber} (${call.name}): ${result.error ?? result.description}`;
  }

  private async advance(page: Page): Promise<Decision> {
    this.phase = 'collect';
    if (this.saves.collector.full) return this.stop(`max_items (${this.saves.collector.maxItems}) reached`);
    if (this.pageNumber >= this.block.max_pages) return this.stop(`max_pages (${this.block.max_pages}) reached`);
    this.mode ??= await this.detectMode(page);
    const call = await this.advanceCall(page, this.mode);
    if (typeof call === 'string') return this.stop(call);
    this.countBeforeAdvance = await countItems(page, this.block.item_link);
    this.pageNumber += 1;
    this.advances.add(call);
    return { actions: [call] };
  }

  /** The action that shows more items, or why there are no more. */
  private async advanceCall(page: Page, mode: WalkMode): Promise<ActionCall | string> {
    if (mode === 'infinite_scroll') return { name: 'scroll', args: { direction: 'down', amount: 50 } };
    const next = this.block.next;
    const control = next ? await inspectControl(page, next) : undefined;
    if (!next || !control || control.disabled || control.hidden)
      return mode === 'pagination' ? 'there is no next page' : 'the load-more control is gone';
    if (mode === 'load_more' || !control.href) return { name: 'click', args: { target: next } };
    const href = withoutHash(control.href);
    if (this.visited.has(href)) return `the next page (${href}) was already visited`;
    this.visited.add(href);
    return { name: 'goto', args: { url: control.href } };
  }

  private async detectMode(page: Page): Promise<WalkMode> {
    if (this.block.mode !== 'auto') return this.block.mode;
    if (!this.block.next) return 'infinite_scroll';
    const control = await inspectControl(page, this.block.next);
    return !control || control.href ? 'pagination' : 'load_more';
  }

  private async waitForGrowth(page: Page): Promise<void> {
    const until = Date.now() + (this.quietScrolls > 0 ? QUIET_GROWTH_TIMEOUT_MS : GROWTH_TIMEOUT_MS);
    while (Date.now() < until && (await countItems(page, this.block.item_link)) <= this.countBeforeAdvance) await sleep(GROWTH_POLL_MS);
  }

  private stop(reason: string): Decision {
    this.stopReason = reason;
    return { actions: [doneCall(reason)] };
  }
}

function withoutHash(url: string): string {
  return url.split('#')[0] ?? url;
}
