import { ActionError, type PageStateAccess } from '../actions/core/types';
import { describeNode, type Observation } from '../snapshot';
import { findInObservation } from '../snapshot/find';
import { formatCounts } from '../snapshot/serialize';
import { DOCUMENT_STUB_REF } from '../snapshot/document-section';
import type { ExpandRequest, OutlineEntry, Stub } from '../snapshot/types';

export const MAX_FOCUS_REFS = 20;

/**
 * What the agent asked to see on the current page — regions it expanded, elements it found — carried into
 * the next observation, and the refs of the last look (what is new since shows first). A new page
 * (another address, ignoring the fragment) starts clean. Nothing here touches the page.
 */
export class PageStateFocus implements PageStateAccess {
  private latest?: Observation;
  private readonly expanded = new Map<string, ExpandRequest>();
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
      // Opening the rest of what was opened before moves on to it: the earlier request would keep showing its start.
      for (const [ref, request] of this.expanded) {
        const range = openedRange(observation.outline.entries, ref, request);
        if (range && stub.index >= range.from && stub.index < range.to) this.expanded.delete(ref);
      }
      this.expanded.set(wanted, stub.kind === 'run' ? runRequest(observation.outline.entries, stub) : { kind: 'region', siblings: 0 });
      this.trim();
      return `[${wanted}] opened: its ${formatCounts(stub.counts)} are listed with refs in the next page state, as many as fit (what does not is named there)`;
    }
    const node = observation.refs.get(wanted);
    if (!node) throw new ActionError(`${wanted} is not in the latest page state — expand takes the ref printed on a "(collapsed: …)" line`);
    this.expanded.set(wanted, { kind: 'region', siblings: 0 });
    this.trim();
    return `[${wanted}] ${describeNode(node)} opened: what it holds is listed in the next page state, as much as fits (what does not is named there)`;
  }

  /**
   * The claim of `expand`, checked against the page state that followed it: what the agent opened that is still
   * (partly) collapsed, because it is longer than one page state holds, with the stubs that hold the rest.
   */
  stillCollapsed(): string[] {
    const observation = this.latest;
    if (!observation) return [];
    const entries = observation.outline.entries;
    const lines: string[] = [];
    for (const [ref, request] of this.expanded) {
      const range = openedRange(entries, ref, request);
      if (!range) continue;
      const inside = observation.stubs.filter(stub => stub.index >= range.from && stub.index < range.to);
      if (inside.length === 0) continue;
      const where = inside.map(stub => `[${stub.ref}] (${formatCounts(stub.counts)})`).join(', ');
      lines.push(`Expanded [${ref}] is longer than one page state: still collapsed in it — ${where}. Expand that, or find words in it.`);
    }
    return lines;
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

/** A run is found again by its ref: the sibling holding the ref, and how far it is from the run's first sibling. */
function runRequest(entries: readonly OutlineEntry[], stub: Stub): ExpandRequest {
  const first = entries[stub.index];
  const holder = holderAtDepth(
    entries,
    entries.findIndex(entry => entry.node.ref === stub.ref),
    first?.depth ?? 0,
  );
  let offset = 0;
  for (let index = stub.index; index < holder && index < stub.end; index = entries[index]?.end ?? stub.end) offset++;
  return { kind: 'run', siblings: stub.siblings, depth: first?.depth, offset };
}

function holderAtDepth(entries: readonly OutlineEntry[], index: number, depth: number): number {
  let at = index;
  while (at >= 0 && (entries[at]?.depth ?? 0) > depth) at = entries[at]?.parent ?? -1;
  return at;
}

/** Where in the outline an expand request opens: a region's subtree, or its run of siblings. */
function openedRange(entries: readonly OutlineEntry[], ref: string, request: ExpandRequest): { from: number; to: number } | undefined {
  const index = entries.findIndex(entry => entry.node.ref === ref);
  const entry = entries[index];
  if (!entry) return undefined;
  if (request.kind === 'region') return { from: index, to: entry.end };
  const holder = holderAtDepth(entries, index, request.depth ?? entry.depth);
  const parentEnd = entries[entries[holder]?.parent ?? -1]?.end ?? entries.length;
  const siblings: number[] = [];
  for (let at = entries[holder]?.parent === -1 ? 0 : (entries[holder]?.parent ?? 0) + 1; at < parentEnd; at = entries[at]?.end ?? parentEnd)
    siblings.push(at);
  const start = Math.max(0, siblings.indexOf(holder) - (request.offset ?? 0));
  const shown = siblings.slice(start, start + request.siblings);
  const last = shown.at(-1);
  return shown.length && last !== undefined ? { from: shown[0] as number, to: entries[last]?.end ?? last + 1 } : undefined;
}
