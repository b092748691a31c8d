import type { AriaJsonNode } from './raw';
import type { Box } from './types';

/**
 * Refs that survive a re-render. Playwright binds a ref to a DOM node (`e12`), so a page that redraws a control
 * (a calendar's Prev redrawn with its month, a list re-keyed by its framework) gives the same control a new ref,
 * and the ref the model holds matches nothing. This memory, one per page, keeps the first ref it printed for a
 * control and maps it to Playwright's current one: a new node takes over a ref whose node left the page when it
 * has the same role, name and place — the same labelled ancestors, and the same box on the page, or else it is
 * the only one of its kind that left and the only one that came. Anything less certain gets its own new ref: a ref
 * never moves to a different control.
 *
 * Playwright never reuses a ref within a document (and prefixes each new document's refs, `f3e12`), so a taken-over
 * ref cannot collide with a live one. The clickables observe() adds (`c<N>`) are numbered here too, by their CSS
 * path and hint, so the same icon keeps its number from one look to the next.
 */

/** What makes a control the same one after a redraw. */
export interface RefIdentity {
  /** Ref prefix of its document (`f3` of `f3e12`; '' for the first document). */
  document: string;
  /** Role, label and the labelled ancestors, as one string. */
  key: string;
  /** Its box in document coordinates (viewport box plus the page's scroll). */
  box?: Box;
}

/** An added clickable (`c<N>`): its identity in the page (element-ids.ts), and what makes a redrawn one the same control. */
export interface AddedIdentity {
  element?: string;
  key: string;
}

interface Entry {
  live: string;
  identity: RefIdentity;
  /** Observation count when its node was last seen: the oldest gone entries are forgotten first. */
  seen: number;
}

const BOX_TOLERANCE_PX = 3;
const LABEL_CHARS = 60;
/** How far up an unlabelled control looks for the words of its item. */
const ITEM_LEVELS = 3;
/** Gone controls remembered per page (a popup closed and opened again is redrawn from scratch). */
const MAX_GONE = 5000;
const UNLABELLED_ROLES = new Set(['generic', 'none', 'presentation']);

export class RefMemory {
  private readonly entries = new Map<string, Entry>();
  private readonly printedByLive = new Map<string, string>();
  private readonly addedByKey = new Map<string, string>();
  private readonly addedByElement = new Map<string, string>();
  /** Printed c-ref → the element it named at its last look, and that look. */
  private readonly addedSeen = new Map<string, { element?: string; look: number }>();
  private nextAdded = 1;
  private looks = 0;
  private topDocument?: string;

  /**
   * The printed ref of every live ref of one snapshot (`identities`, from identitiesOf), and of every added
   * clickable (`added`: observe()'s provisional c-ref → its identity). Only refs that differ are in the result.
   */
  assign(
    identities: ReadonlyMap<string, RefIdentity>,
    added: ReadonlyMap<string, AddedIdentity> = new Map(),
    topDocument?: string,
  ): Map<string, string> {
    this.looks++;
    if (topDocument !== undefined && topDocument !== this.topDocument) {
      // A new document: nothing of the old one can be found again, and its added clickables were numbered for it.
      this.clear();
      this.topDocument = topDocument;
    }
    let printedOf = this.printedRefs(identities);
    if (new Set(printedOf.values()).size !== printedOf.size) {
      // A frame that loaded a new document restarts its refs under the same prefix: start over rather than print one ref twice.
      this.clear();
      printedOf = this.printedRefs(identities);
    }
    const renames = new Map<string, string>();
    for (const [live, printed] of printedOf) {
      const previous = this.entries.get(printed);
      if (previous && previous.live !== live) this.printedByLive.delete(previous.live);
      this.entries.set(printed, { live, identity: identities.get(live)!, seen: this.looks });
      this.printedByLive.set(live, printed);
      if (printed !== live) renames.set(live, printed);
    }
    for (const [provisional, printed] of this.printedAdded(added)) if (printed !== provisional) renames.set(provisional, printed);
    this.forgetOldest();
    return renames;
  }

  /**
   * An added clickable keeps its number while it is the same element; a new element takes over the number of the one
   * it replaces (same key, and that one is gone from the page); anything else gets a new number. No number is printed
   * twice in one look, and none moves to an element while the one it named is still on the page.
   */
  private printedAdded(added: ReadonlyMap<string, AddedIdentity>): Map<string, string> {
    const printedOf = new Map<string, string>();
    const taken = new Set<string>();
    const present = new Set([...added.values()].flatMap(identity => (identity.element ? [identity.element] : [])));
    const free = (printed: string | undefined): printed is string => {
      if (printed === undefined || taken.has(printed)) return false;
      const before = this.addedSeen.get(printed)?.element;
      return before === undefined || !present.has(before);
    };
    for (const [provisional, identity] of added) {
      const own = identity.element ? this.addedByElement.get(identity.element) : undefined;
      const successor = this.addedByKey.get(identity.key);
      const printed = own !== undefined && !taken.has(own) ? own : free(successor) ? successor : `c${this.nextAdded++}`;
      taken.add(printed);
      printedOf.set(provisional, printed);
      this.addedByKey.set(identity.key, printed);
      if (identity.element) this.addedByElement.set(identity.element, printed);
      this.addedSeen.set(printed, { element: identity.element, look: this.looks });
    }
    return printedOf;
  }

  /** Live ref → printed ref: the one printed before for the same node, a gone one it takes over, or its own. */
  private printedRefs(identities: ReadonlyMap<string, RefIdentity>): Map<string, string> {
    const printedOf = new Map<string, string>();
    const fresh: Array<[string, RefIdentity]> = [];
    for (const [live, identity] of identities) {
      const printed = this.printedByLive.get(live);
      if (printed === undefined) fresh.push([live, identity]);
      else printedOf.set(live, printed);
    }
    const successors = this.matchSuccessors(fresh, identities);
    for (const [live] of fresh) printedOf.set(live, successors.get(live) ?? live);
    return printedOf;
  }

  /** Playwright's current ref for a printed one (the printed one itself when it was never taken over). */
  live(printed: string): string {
    return this.entries.get(printed)?.live ?? printed;
  }

  /** The ref was printed by this memory for a control of the page. */
  knows(printed: string): boolean {
    return this.entries.has(printed);
  }

  private clear(): void {
    this.entries.clear();
    this.printedByLive.clear();
    this.addedByKey.clear();
    this.addedByElement.clear();
    this.addedSeen.clear();
    this.nextAdded = 1;
  }

  /** New live refs that take over a gone one: same key and the same box, each the other's only match. */
  private matchSuccessors(fresh: ReadonlyArray<[string, RefIdentity]>, identities: ReadonlyMap<string, RefIdentity>): Map<string, string> {
    const matched = new Map<string, string>();
    if (fresh.length === 0) return matched;
    const gone = new Map<string, Array<[string, Entry]>>();
    for (const [printed, entry] of this.entries) {
      if (identities.has(entry.live)) continue;
      const key = identityKey(entry.identity);
      const list = gone.get(key);
      if (list) list.push([printed, entry]);
      else gone.set(key, [[printed, entry]]);
    }
    if (gone.size === 0) return matched;
    const arrived = new Map<string, Array<[string, RefIdentity]>>();
    for (const item of fresh) {
      const key = identityKey(item[1]);
      if (!gone.has(key)) continue;
      const list = arrived.get(key);
      if (list) list.push(item);
      else arrived.set(key, [item]);
    }
    for (const [key, newcomers] of arrived) {
      const candidates = gone.get(key) ?? [];
      for (const [live, identity] of newcomers) {
        const near = candidates.filter(([, entry]) => sameBox(entry.identity.box, identity.box));
        if (near.length !== 1) continue;
        const [printed, entry] = near[0]!;
        const rivals = newcomers.filter(([, other]) => sameBox(entry.identity.box, other.box));
        if (rivals.length === 1) matched.set(live, printed);
      }
    }
    return matched;
  }

  /** Controls on the page now are always remembered; of those gone, the longest gone are forgotten first. */
  private forgetOldest(): void {
    this.forgetOldestAdded();
    const gone = [...this.entries].filter(([, entry]) => entry.seen < this.looks);
    if (gone.length <= MAX_GONE) return;
    const oldest = gone.sort(([, a], [, b]) => a.seen - b.seen).slice(0, gone.length - MAX_GONE);
    for (const [printed, entry] of oldest) {
      this.entries.delete(printed);
      this.printedByLive.delete(entry.live);
    }
  }

  private forgetOldestAdded(): void {
    const gone = [...this.addedSeen].filter(([, seen]) => seen.look < this.looks);
    if (gone.length <= MAX_GONE) return;
    const forgotten = new Set(
      gone
        .sort(([, a], [, b]) => a.look - b.look)
        .slice(0, gone.length - MAX_GONE)
        .map(([printed]) => printed),
    );
    for (const printed of forgotten) this.addedSeen.delete(printed);
    for (const map of [this.addedByKey, this.addedByElement]) for (const [key, printed] of map) if (forgotten.has(printed)) map.delete(key);
  }
}

function identityKey(identity: RefIdentity): string {
  return `${identity.document}\u0001${identity.key}`;
}

function sameBox(a: Box | undefined, b: Box | undefined): boolean {
  if (!a || !b) return false;
  return (
    Math.abs(a.x - b.x) <= BOX_TOLERANCE_PX &&
    Math.abs(a.y - b.y) <= BOX_TOLERANCE_PX &&
    Math.abs(a.width - b.width) <= BOX_TOLERANCE_PX &&
    Math.abs(a.height - b.height) <= BOX_TOLERANCE_PX
  );
}

export function documentOf(ref: string): string {
  return /^f\d+/.exec(ref)?.[0] ?? '';
}

/**
 * The identity of every ref of a raw AI snapshot, read before observe() adds anything to the tree. Labels are the
 * node's name, else its first text; the place is the chain of ancestors that have a role of their own.
 */
export function identitiesOf(roots: ReadonlyArray<string | AriaJsonNode>, scroll: { x: number; y: number }): Map<string, RefIdentity> {
  const identities = new Map<string, RefIdentity>();
  const ancestors: AriaJsonNode[] = [];
  const visit = (node: AriaJsonNode, path: string, offset: { x: number; y: number }) => {
    const label = labelOf(node) || itemLabelOf(node, ancestors);
    if (node.ref) {
      const box = node.box && { x: node.box.x + offset.x, y: node.box.y + offset.y, width: node.box.width, height: node.box.height };
      identities.set(node.ref, { document: documentOf(node.ref), key: `${path}\u0002${node.role} ${label}`, box });
    }
    const own = UNLABELLED_ROLES.has(node.role) ? '' : `${node.role} ${node.role === 'iframe' ? '' : (node.name ?? '').slice(0, LABEL_CHARS)}`;
    const inner = own ? `${path}/${own}` : path;
    // A frame's boxes are its own viewport's, and its scroll is unknown here: they are compared as they are.
    const innerOffset = node.role === 'iframe' ? { x: 0, y: 0 } : offset;
    ancestors.push(node);
    for (const child of node.children ?? []) if (typeof child !== 'string') visit(child, inner, innerOffset);
    ancestors.pop();
  };
  for (const root of roots) if (typeof root !== 'string') visit(root, '', scroll);
  return identities;
}

/** The ref prefix of the top document's nodes (undefined when it has none). */
export function topDocumentOf(roots: ReadonlyArray<string | AriaJsonNode>): string | undefined {
  const stack = [...roots];
  while (stack.length) {
    const node = stack.shift();
    if (!node || typeof node === 'string') continue;
    if (node.ref && node.role !== 'iframe') return documentOf(node.ref);
    if (node.role !== 'iframe') stack.push(...(node.children ?? []));
  }
  return undefined;
}

function labelOf(node: AriaJsonNode): string {
  if (node.name) return node.name.slice(0, LABEL_CHARS);
  const text = firstText(node, 3);
  return text ? `"${text.replace(/\s+/g, ' ').trim().slice(0, LABEL_CHARS)}` : '';
}

/**
 * A control with no words of its own (an icon in every post of a feed) is told from its twins by the words of the item
 * it sits in: the first text of its nearest ancestor that has one. A redrawn icon then takes over only its own post's
 * ref, never the one of another post drawn where that post was.
 */
function itemLabelOf(node: AriaJsonNode, ancestors: readonly AriaJsonNode[]): string {
  for (let level = 1; level <= ITEM_LEVELS; level++) {
    const ancestor = ancestors[ancestors.length - level];
    if (!ancestor) break;
    const text = firstText({ ...ancestor, children: ancestor.children?.filter(child => child !== node) }, 3);
    if (text) return `~${text.replace(/\s+/g, ' ').trim().slice(0, LABEL_CHARS)}`;
  }
  return '';
}

function firstText(node: AriaJsonNode, depth: number): string | undefined {
  if (node.text?.trim()) return node.text;
  if (depth === 0) return undefined;
  for (const child of node.children ?? []) {
    if (typeof child === 'string') {
      if (child.trim()) return child;
      continue;
    }
    const found = child.name?.trim() ? child.name : firstText(child, depth - 1);
    if (found) return found;
  }
  return undefined;
}

const memories = new WeakMap<object, RefMemory>();

/** The page's memory (one per page object: its refs are the page's, across its documents). */
export function refMemoryOf(page: object): RefMemory {
  let memory = memories.get(page);
  if (!memory) memories.set(page, (memory = new RefMemory()));
  return memory;
}
