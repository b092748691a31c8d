import { foldPictureTwin } from './picture-twins';
import type { FlatNode } from './raw';
import { INTERACTIVE_ROLES } from './roles';
import { isMeaningfulText } from './text';

/**
 * Running text with links or buttons inside ("…then click on the link laoreet inside the text") is one
 * line: its text in quoted pieces, each control in place with its ref. The model reads the sentence and
 * acts on the link in one step; nothing is split into orphan fragments.
 */

export interface InlineGroup {
  host: number;
  pieces: InlinePiece[];
}

/** An element in the running text; `also` are refs of twins folded into it (an avatar link beside the name link). */
export type InlinePiece = { kind: 'text'; text: string } | { kind: 'element'; index: number; also?: string[] };

const HOST_ROLES = new Set([
  'paragraph',
  'generic',
  'listitem',
  'cell',
  'gridcell',
  'columnheader',
  'rowheader',
  'heading',
  'caption',
  'blockquote',
  'term',
  'definition',
  'strong',
  'emphasis',
  'mark',
  'label',
  'text',
  'note',
  'time',
  'superscript',
  'subscript',
  'insertion',
  'deletion',
]);
const INLINE_ROLES = new Set([
  'link',
  'button',
  'code',
  'strong',
  'emphasis',
  'mark',
  'subscript',
  'superscript',
  'deletion',
  'insertion',
  'time',
  'img',
  'generic',
  'text',
  'abbr',
  'none',
  'presentation',
  'term',
  'definition',
]);
export const MAX_INLINE_CHILDREN = 80;

/** Groups by host index; the members of every group are marked in `consumed`. */
export function findInlineGroups(flat: readonly FlatNode[], consumed: Uint8Array): Map<number, InlineGroup> {
  const groups = new Map<number, InlineGroup>();
  for (const host of flat) {
    if (consumed[host.index] || host.fragment || !HOST_ROLES.has(host.node.role) || host.node.clickable) continue;
    const pieces = inlinePieces(flat, host);
    if (!pieces) continue;
    groups.set(host.index, { host: host.index, pieces });
    consumed.fill(1, host.index + 1, host.end);
  }
  return groups;
}

function inlinePieces(flat: readonly FlatNode[], host: FlatNode): InlinePiece[] | undefined {
  const children = directChildren(flat, host);
  if (children.length < 2 || children.length > MAX_INLINE_CHILDREN) return undefined;
  let runningText = false;
  let hasElement = false;
  for (const child of children) {
    if (child.fragment) {
      runningText ||= isMeaningfulText(child.node.text);
    } else if (!isInlineSubtree(flat, child)) {
      return undefined;
    } else if (INTERACTIVE_ROLES.has(child.node.role) || child.node.clickable) {
      hasElement = true;
    } else if (isMeaningfulText(child.node.name ?? child.node.text)) {
      runningText = true;
    }
  }
  // Text alone keeps its own lines (a label and its value stay apart: "Error" / "3 tests failed"); only text
  // with a control inside it is one line.
  if (!runningText || !hasElement) return undefined;
  const pieces: InlinePiece[] = [];
  collectPieces(flat, host, pieces);
  return pieces;
}

function collectPieces(flat: readonly FlatNode[], parent: FlatNode, pieces: InlinePiece[]): void {
  for (const child of directChildren(flat, parent)) {
    const node = child.node;
    if (child.fragment) pushText(pieces, node.text ?? '');
    else if (isBareClickTaker(flat, child)) collectPieces(flat, child, pieces);
    else if (node.ref && (INTERACTIVE_ROLES.has(node.role) || node.clickable)) pushElement(flat, pieces, child);
    else if (child.end > child.index + 1) collectPieces(flat, child, pieces);
    else pushText(pieces, node.name ?? node.text ?? '');
  }
}

/** An element of the line; an avatar link beside its name link (either order) joins it as `also` (foldPictureTwin). */
function pushElement(flat: readonly FlatNode[], pieces: InlinePiece[], item: FlatNode): void {
  const last = pieces.at(-1);
  const earlier = last?.kind === 'element' ? last : undefined;
  const pair = earlier && foldPictureTwin(flat, flat[earlier.index] as FlatNode, item);
  if (earlier && pair) {
    pieces[pieces.length - 1] = { kind: 'element', index: pair.kept.index, also: [...(earlier.also ?? []), pair.folded.node.ref as string] };
    return;
  }
  pieces.push({ kind: 'element', index: item.index });
}

/** A wrapper that takes clicks for the controls inside it (a stepper's "−" and "+"): its controls are what to show. */
function isBareClickTaker(flat: readonly FlatNode[], item: FlatNode): boolean {
  const node = item.node;
  if (INTERACTIVE_ROLES.has(node.role) || !node.clickable || node.name || node.text || node.hint) return false;
  for (let index = item.index + 1; index < item.end; index++) {
    const inner = flat[index]?.node;
    if (inner?.ref && (INTERACTIVE_ROLES.has(inner.role) || inner.clickable)) return true;
  }
  return false;
}

function pushText(pieces: InlinePiece[], text: string): void {
  if (!text) return;
  const last = pieces.at(-1);
  if (last?.kind === 'text') last.text = joinText(last.text, text);
  else pieces.push({ kind: 'text', text });
}

/** Fragments lose the spaces at their edges: put one back, except before closing punctuation. */
export function joinText(left: string, right: string): string {
  if (!left) return right;
  return /^[.,;:!?)\]}»”’%]/.test(right) || /[([{«“‘$]$/.test(left) ? `${left}${right}` : `${left} ${right}`;
}

function directChildren(flat: readonly FlatNode[], parent: FlatNode): FlatNode[] {
  const children: FlatNode[] = [];
  for (let index = parent.index + 1; index < parent.end;) {
    const child = flat[index];
    if (!child) break;
    children.push(child);
    index = child.end;
  }
  return children;
}

/** A piece of running text: inline roles all the way down (a link with an icon inside is fine). */
function isInlineSubtree(flat: readonly FlatNode[], item: FlatNode): boolean {
  for (let index = item.index; index < item.end; index++) {
    const node = flat[index];
    if (node && !node.fragment && !INLINE_ROLES.has(node.node.role)) return false;
  }
  return true;
}
