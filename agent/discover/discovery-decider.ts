import type { Page } from '@playwright/test';
import type { ActionCall } from '../actions/core/dispatch';
import { actionHas } from '../actions/registry';
import type { ActionResult } from '../actions/core/types';
import type { Consolidation, Decider, Decision, DecisionInput, PageView } from '../decide/types';
import { ITEMS_KEY } from './discovery-spec';
import { doneCall, type ItemSaves, type PendingItem } from './item-saves';
import { linkResolver } from './link-reader';

const LINK_KEYS = ['url', 'link', 'href', 'ref'] as const;
const MAX_LISTED_PROBLEMS = 5;

/**
 * Wraps the model decider for discovery: every item the model saves is checked against the live page and
 * replaced by the link it really is (absolute URL, link text), numbered with the page it was seen on.
 * Items that are not links on the page are dropped, and the model is told so in the action's result.
 */
export class DiscoveryDecider implements Decider {
  readonly kind: string;
  readonly needsView = true;
  stopReason = '';
  private pageNumber = 1;
  private advancedSinceSave = false;
  private savedAny = false;

  constructor(
    private readonly inner: Decider,
    private readonly saves: ItemSaves,
    private readonly pageFor: (url: string) => Page,
    private readonly attributes: readonly string[],
    private readonly maxPages: number,
  ) {
    this.kind = inner.kind;
  }

  async decide(input: DecisionInput, signal: AbortSignal): Promise<Decision> {
    if (this.saves.collector.full) return this.stop(`max_items (${this.saves.collector.maxItems}) reached`);
    if (this.advancedSinceSave && this.savedAny && this.pageNumber >= this.maxPages) return this.stop(`max_pages (${this.maxPages}) reached`);
    const decision = await this.inner.decide(input, signal);
    const actions: ActionCall[] = [];
    for (const call of decision.actions) {
      const late = call.name === 'done' ? itemsGivenWithDone(call) : undefined;
      if (late) actions.push(await this.resolveSave(late.save, input.view), late.done);
      else actions.push(call.name === 'save_progress' ? await this.resolveSave(call, input.view) : call);
    }
    return { ...decision, actions };
  }

  observe(call: ActionCall, result: ActionResult, pageUrl: string): void {
    this.inner.observe?.(call, result, pageUrl);
    if (this.saves.settle(call, result) > 0) this.savedAny = true;
    if (call.name === 'done' && result.success) this.stopReason ||= 'the model found no more items';
    if (result.success && actionHas(call.name, 'mayTurnPage')) this.advancedSinceSave = true;
  }

  consolidate(input: DecisionInput, reason: string, options: { preferFallback: boolean; signal: AbortSignal }): Promise<Consolidation> {
    if (!this.inner.consolidate) throw new Error('the wrapped decider cannot consolidate');
    this.stopReason ||= reason;
    return this.inner.consolidate(input, reason, options);
  }

  private async resolveSave(call: ActionCall, view: PageView | undefined): Promise<ActionCall> {
    const data = call.args.data;
    const reported = data && typeof data === 'object' ? (data as Record<string, unknown>)[ITEMS_KEY] : undefined;
    if (!Array.isArray(reported) || !view) return call;
    if (this.advancedSinceSave && this.savedAny) this.pageNumber += 1;
    this.advancedSinceSave = false;
    const resolve = linkResolver(this.pageFor(view.url), view.elements, this.attributes);
    const where = { pageUrl: view.url, pageNumber: this.pageNumber };
    const found: PendingItem[] = [];
    const problems: string[] = [];
    for (const entry of reported) {
      const fields = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
      const name = typeof entry === 'string' ? entry : LINK_KEYS.map(k => fields[k]).find((v): v is string => typeof v === 'string');
      if (!name) {
        problems.push(`${JSON.stringify(entry).slice(0, 60)}: give "url" or "link"`);
        continue;
      }
      const resolved = await resolve(name);
      if ('problem' in resolved) problems.push(resolved.problem);
      else found.push({ link: resolved.link, where, reported: withoutLinkKeys(fields) });
    }
    const fresh = this.saves.fresh(found);
    const total = this.saves.collector.size + fresh.length;
    const parts = [`${fresh.length} new item(s) recorded, ${total} in total`];
    if (found.length > fresh.length) parts.push(`${found.length - fresh.length} already saved or over the cap`);
    if (problems.length)
      parts.push(
        `${problems.length} not recorded — ${problems.slice(0, MAX_LISTED_PROBLEMS).join('; ')}${problems.length > MAX_LISTED_PROBLEMS ? '; …' : ''}`,
      );
    const note = [typeof call.args.note === 'string' ? call.args.note : `page ${this.pageNumber}`, parts.join('; ')].join(' — ');
    const rest = Object.fromEntries(Object.entries(data as Record<string, unknown>).filter(([k]) => k !== ITEMS_KEY));
    return this.saves.saveCall(fresh, note, rest);
  }

  private stop(reason: string): Decision {
    this.stopReason = reason;
    return { actions: [doneCall(reason)] };
  }
}

/** Items put in done's output instead of saved: saved first, as if the model had called save_progress. */
function itemsGivenWithDone(call: ActionCall): { save: ActionCall; done: ActionCall } | undefined {
  const extracted = call.args.extracted;
  if (!extracted || typeof extracted !== 'object' || !Array.isArray((extracted as Record<string, unknown>)[ITEMS_KEY])) return undefined;
  const { [ITEMS_KEY]: items, ...rest } = extracted as Record<string, unknown>;
  return {
    save: { name: 'save_progress', args: { data: { [ITEMS_KEY]: items }, note: 'items given with done' } },
    done: { ...call, args: { ...call.args, extracted: rest } },
  };
}

function withoutLinkKeys(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !(LINK_KEYS as readonly string[]).includes(key)));
}
