import { ActionError, type PageStateAccess } from '../actions/core/types';
import { describeNode, type Observation } from '../snapshot';
import { findInObservation } from '../snapshot/find';
import { formatCounts } from '../snapshot/serialize';
import { DOCUMENT_STUB_REF } from '../snapshot/document-section';

export const MAX_FOCUS_REFS = 20;

/**
 * What the agent asked to see on the current page — regions it expanded, elements it found — carried into
 * the next observation, and the refs of the last look (what is new since shows first). A new page
 * (another address, ignoring the fragment) starts clean. Nothing here touches the page.
 */
export class PageStateFocus implements PageStateAccess {
  private latest?: Observation;
  private readonly expanded = new Map<string, { kind: 'region' | 'run'; siblings: number }>();
  private readonly found = new Set<string>();
  /** The document section is printed whole on the first look at a page and after `expand d0`. */
  private documentAsked = false;

  /** Options for the next observe() of the page at `url`. */
  forNextLook(url: string) {
    if (!this.latest || pageKey(this.latest.url) !== pageKey(url)) {
      this.expanded.clear();
      this.found.clear();
      return { showDocument: true };
    }
    const previousRefs = new Set(this.latest.refs.keys());
    const showDocument = this.documentAsked ? ('whole' as const) : false;
    this.documentAsked = false;
    return { focus: { expanded: new Map(this.expanded), found: new Set(this.found) }, previousRefs, showDocument };
  }

  remember(observation: Observation): void {
    if (this.latest && pageKey(this.latest.url) !== pageKey(observation.url)) {
      this.expanded.clear();
      this.found.clear();
    }
    this.latest = observation;
  }

  /** The page could not be read: there is nothing to expand or search until the next look succeeds. */
  forget(): void {
    this.latest = undefined;
    this.expanded.clear();
    this.found.clear();
  }

  expand(ref: string): string {
    const observation = this.current();
    const wanted = ref.trim().replace(/^\[|\]$/g, '');
    if (wanted === DOCUMENT_STUB_REF && observation.document.length) {
      this.documentAsked = true;
      return `[${wanted}] opened: what the page says about itself is listed in the next page state`;
    }
    const stub = observation.stubs.find(candidate => candidate.ref === wanted);
    if (stub) {
      this.remember(observation);
      this.expanded.set(wanted, { kind: stub.kind, siblings: stub.siblings });
      this.trim();
      return `[${wanted}] opened: its ${formatCounts(stub.counts)} are listed with refs in the next page state`;
    }
    const node = observation.refs.get(wanted);
    if (!node) throw new ActionError(`${wanted} is not in the latest page state — expand takes the ref printed on a "(collapsed: …)" line`);
    this.expanded.set(wanted, { kind: 'region', siblings: 0 });
    this.trim();
    return `[${wanted}] ${describeNode(node)} opened: everything inside it is listed in the next page state`;
  }

  find(text: string): string {
    const observation = this.current();
    const result = findInObservation(observation, text);
    if (result.total === 0)
      return `No element on this page holds ${JSON.stringify(text)} (collapsed parts included) — try other words, or scroll for content that loads later`;
    for (const ref of result.refs) this.found.add(ref);
    this.trim();
    const more = result.total > result.lines.length ? ` (first ${result.lines.length} of ${result.total})` : '';
    return [
      `Found ${result.total} element(s) holding ${JSON.stringify(text)}${more}; they stay listed in the next page state:`,
      ...result.lines,
    ].join('\n');
  }

  private current(): Observation {
    if (!this.latest) throw new ActionError('There is no page state to search: the page could not be read — scroll, go back or refresh first');
    return this.latest;
  }

  /** The oldest requests give way: an agent that keeps expanding must not pin the whole page. */
  private trim(): void {
    while (this.expanded.size > MAX_FOCUS_REFS) this.expanded.delete(this.expanded.keys().next().value as string);
    while (this.found.size > MAX_FOCUS_REFS) this.found.delete(this.found.values().next().value as string);
  }
}

function pageKey(url: string): string {
  return url.split('#')[0] ?? url;
}
