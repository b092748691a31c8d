import type { FlatNode } from './raw';
import {
  CONTENT_ROLES,
  FORM_CONTROL_ROLES,
  INTERACTIVE_ROLES,
  NAMED_CONTAINER_ROLES,
  PLAIN_TEXT_ROLES,
  TABLE_CELL_ROLES,
  URGENT_ROLES,
} from './roles';
import { isGraphicOnly } from './tables';
import { isMeaningfulText, looksLikeAddress } from './text';

/** What a node is to a reader of the page state: decides whether it gets a line and how it ranks. */
export type NodeKind = 'urgent' | 'control' | 'interactive' | 'heading' | 'status' | 'image' | 'container' | 'content' | 'text';

/** Anything a person could click, type into or toggle, named or not: it always gets a line with a ref. */
export function isActionable(item: FlatNode): boolean {
  const node = item.node;
  return !!node.ref && (INTERACTIVE_ROLES.has(node.role) || node.clickable === true);
}

export function classify(flat: readonly FlatNode[], item: FlatNode): NodeKind | undefined {
  const node = item.node;
  const role = node.role;
  if (item.fragment) return isMeaningfulText(node.text) && !isLabelEcho(flat, item) ? 'text' : undefined;
  if (URGENT_ROLES.has(role)) return 'urgent';
  // A list that scrolls inside the page says how much of it is out of sight, whatever its role.
  if (node.scroller && node.ref && !INTERACTIVE_ROLES.has(role)) return 'container';
  // A control without a ref cannot be acted on (Playwright gives none to what is hidden or covered): only its words count.
  if (INTERACTIVE_ROLES.has(role) && !node.ref) return isMeaningfulText(node.name) ? 'text' : undefined;
  if (FORM_CONTROL_ROLES.has(role)) return 'control';
  if (INTERACTIVE_ROLES.has(role)) return 'interactive';
  if (node.clickable && node.ref) return 'interactive';
  const label = node.name ?? node.text;
  if (PLAIN_TEXT_ROLES.has(role) || role === 'none' || role === 'presentation') {
    return isMeaningfulText(label) && !isLabelEcho(flat, item) ? 'text' : undefined;
  }
  if (label && normalizeLabel(flat[item.parent]?.node.name) === normalizeLabel(label) && !isActionable(flat[item.parent] as FlatNode))
    return undefined;
  if (role === 'heading') return isMeaningfulText(label) ? 'heading' : undefined;
  if (role === 'status' || role === 'progressbar' || role === 'meter' || role === 'log') {
    return label || node.value ? 'status' : undefined;
  }
  if (role === 'img') return node.name && !looksLikeAddress(node.name) ? 'image' : undefined;
  if (isGraphicOnly(flat, item)) return undefined;
  if (TABLE_CELL_ROLES.has(role) || role === 'listitem') {
    return isMeaningfulText(label) && !echoesInteractiveDescendant(flat, item, label as string) ? 'content' : undefined;
  }
  if (CONTENT_ROLES.has(role)) return isMeaningfulText(label) ? 'content' : undefined;
  // A frame's lines print under its <iframe> line: the nesting says they act inside it.
  if (role === 'iframe') return node.ref ? 'container' : undefined;
  if (NAMED_CONTAINER_ROLES.has(role)) return node.name ? 'container' : undefined;
  return isMeaningfulText(label) ? 'text' : undefined;
}

export function normalizeLabel(value: string | undefined): string {
  return (value ?? '')
    .toLowerCase()
    .replace(/[\s:*]+$/, '')
    .trim();
}

/** A bare label string next to the control it names (`Search` beside textbox "Search") says nothing new. */
function isLabelEcho(flat: readonly FlatNode[], item: FlatNode): boolean {
  const text = normalizeLabel(item.node.text ?? item.node.name);
  if (!text) return false;
  const parent = flat[item.parent];
  if (parent && normalizeLabel(parent.node.name) === text) return true;
  const next = flat[item.index + 1];
  if (next && next.parent === item.parent && normalizeLabel(next.node.name) === text) return true;
  const previous = previousSibling(flat, item);
  return !!previous && normalizeLabel(previous.node.name) === text;
}

export function previousSibling(flat: readonly FlatNode[], item: FlatNode): FlatNode | undefined {
  let index = item.index - 1;
  while (index > item.parent) {
    const candidate = flat[index];
    if (!candidate) return undefined;
    if (candidate.parent === item.parent) return candidate;
    index = candidate.parent;
  }
  return undefined;
}

/** A cell or list item whose label is just its link's name: the link line already says it. */
function echoesInteractiveDescendant(flat: readonly FlatNode[], item: FlatNode, label: string): boolean {
  for (let index = item.index + 1; index < item.end; index++) {
    const child = flat[index];
    if (child && INTERACTIVE_ROLES.has(child.node.role) && child.node.name === label) return true;
  }
  return false;
}
