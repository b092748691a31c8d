import type { Block } from './blocks';
import { isActionable } from './classify';
import { joinText, type InlinePiece } from './inline';
import { foldPictureTwin } from './picture-twins';
import type { Candidate } from './select-candidates';
import type { FlatNode } from './raw';
import { FORM_CONTROL_ROLES, TABLE_CELL_ROLES } from './roles';
import {
  alsoSuffix,
  displayRole,
  FIRST_SENTENCE_MAX,
  formatAddress,
  formatElement,
  formatStates,
  formatStubLine,
  indent,
  MAX_TEXT_CHARS,
  type LineContext,
} from './serialize';
import { chooseStubSamples, MAX_SAMPLE_CANDIDATES, type SampleCandidate } from './stub-samples';
import { shortenText } from './text';
import type { SnapshotNode, Stub, StubCounts } from './types';

/**
 * Turns the fitted state (which candidates print, which blocks are closed) into the page state's lines, in
 * document order, each indented by its printed ancestors; a closed block prints its stub where it starts.
 */

export const STUB_SAMPLES = 3;

export type LineFormat = Omit<LineContext, 'depth' | 'showLandmark'>;

/** A candidate's line without indentation. */
export function candidateLine(flat: readonly FlatNode[], candidate: Candidate, format: LineFormat): string {
  // Lines kept out of a collapsed region print under its stub line: the nesting already says where they are.
  const ctx = { ...format, showLandmark: false, textLimit: candidate.textLimit };
  if (!candidate.group) return formatElement(candidate.flat.node, ctx);
  const host = candidate.flat.node;
  const parts: string[] = [];
  if (host.ref) parts.push(`[${host.ref}]`);
  parts.push(displayRole(host));
  const notes = formatStates(host);
  if (notes.length) parts.push(`(${notes.join(', ')})`);
  parts.push(...groupParts(flat, candidate.group.pieces, ctx, candidate.textLimit ?? MAX_TEXT_CHARS));
  return parts.join(' ');
}

type Segment = { kind: 'text'; text: string; start: number } | { kind: 'element'; line: string };

/**
 * Running text is shortened as one text (a sentence may run through a link), at a sentence end; the
 * controls inside it all keep their place, so none is lost with the words around it.
 */
function groupParts(flat: readonly FlatNode[], pieces: readonly InlinePiece[], ctx: Omit<LineContext, 'depth'>, limit: number): string[] {
  const segments: Segment[] = [];
  let full = '';
  for (const piece of pieces) {
    const label = piece.kind === 'text' ? piece.text : labelOf((flat[piece.index] as FlatNode).node);
    const joined = joinText(full, label);
    const start = joined.length - label.length;
    full = joined;
    if (piece.kind === 'text') segments.push({ kind: 'text', text: piece.text, start });
    else {
      const line = formatElement((flat[piece.index] as FlatNode).node, ctx);
      segments.push({ kind: 'element', line: `${line}${alsoSuffix(piece.also ?? [])}` });
    }
  }
  const shortened = shortenText(full, limit, Math.max(limit, FIRST_SENTENCE_MAX));
  const keep = full.length - shortened.omitted;
  const parts: string[] = [];
  let omitted = 0;
  for (const segment of segments) {
    if (segment.kind === 'element') {
      parts.push(segment.line);
    } else if (segment.start + segment.text.length <= keep) {
      if (segment.text.trim()) parts.push(JSON.stringify(segment.text));
    } else if (segment.start < keep) {
      const kept = segment.text.slice(0, keep - segment.start).trimEnd();
      parts.push(JSON.stringify(`${kept} …`));
      omitted += segment.text.length - kept.length;
    } else {
      omitted += segment.text.length;
    }
  }
  if (omitted > 0) parts.push(`(+${omitted} chars)`);
  return parts;
}

function labelOf(node: SnapshotNode): string {
  return node.name ?? node.text ?? '';
}

export interface RenderInput {
  format: LineFormat;
  flat: readonly FlatNode[];
  candidates: readonly Candidate[];
  lines: readonly string[];
  blocks: readonly Block[];
  closed: Uint8Array;
  pinned: Uint8Array;
}

export interface Rendered {
  lines: string[];
  visible: Candidate[];
  stubs: Stub[];
}

export function renderState(input: RenderInput): Rendered {
  const { flat, candidates, pinned } = input;
  const positionAt = new Int32Array(flat.length).fill(-1);
  candidates.forEach((candidate, position) => (positionAt[candidate.flat.index] = position));
  const stubs = topStubs(input, positionAt);
  const hidden = new Uint8Array(flat.length);
  for (const stub of stubs) hidden.fill(1, stub.index, stub.end);
  const stubAt = new Map(stubs.map(stub => [stub.index, stub]));

  const lines: string[] = [];
  const visible: Candidate[] = [];
  const open: number[] = [];
  const sameAddress = recentAddresses(input.format);
  const twins = twinLinks();
  const pictures = pictureTwins(input, positionAt);
  for (let index = 0; index < flat.length; index++) {
    while (open.length && (open.at(-1) as number) <= index) open.pop();
    const stub = stubAt.get(index);
    if (stub) {
      const node = stub.kind === 'region' ? flat[stub.index]?.node : undefined;
      lines.push(formatStubLine(node, stub.ref, stub.kind, stub.counts, stub.samples, open.length));
      open.push(stub.end);
    }
    const position = positionAt[index] ?? -1;
    // A collapsed region's own line is its stub: printed once, whatever pinned it.
    if (stub?.kind === 'region' || position === -1 || (hidden[index] && !pinned[position])) continue;
    const candidate = candidates[position] as Candidate;
    visible.push(candidate);
    if (pictures.folded.has(index)) continue;
    const also = pictures.into.get(index);
    // A link folded into its twin takes the pictures folded into it along: their refs stay printed.
    if (!pinned[position] && isLeaf(candidate, positionAt) && twins.fold(candidate.flat.node, lines, also)) continue;
    const line = sameAddress(candidate.flat.node, input.lines[position] as string);
    lines.push(`${indent(open.length)}${line}${alsoSuffix(also ?? [])}`);
    twins.printed(candidate.flat.node, lines);
    open.push(candidate.flat.end);
  }
  return { lines, visible, stubs: stubs.map(({ samples: _samples, ...stub }) => stub) };
}

function isLeaf(candidate: Candidate, positionAt: Int32Array): boolean {
  for (let index = candidate.flat.index + 1; index < candidate.flat.end; index++) if ((positionAt[index] ?? -1) !== -1) return false;
  return true;
}

/**
 * A byline's avatar link (pictures only) shortly before the name link to the same address (foldPictureTwin): one
 * line, the name's, with the avatar's ref beside it. An avatar after its name folds there as a twin link (twinLinks).
 */
function pictureTwins(input: RenderInput, positionAt: Int32Array): { folded: Set<number>; into: Map<number, string[]> } {
  const { flat, candidates } = input;
  const folded = new Set<number>();
  const into = new Map<number, string[]>();
  candidates.forEach((candidate, position) => {
    if (candidate.group || !isLeaf(candidate, positionAt)) return;
    const twin = candidates
      .slice(position + 1, position + 1 + TWIN_LINK_WINDOW)
      .find(next => !next.group && foldPictureTwin(flat, candidate.flat, next.flat)?.folded === candidate.flat);
    if (!twin) return;
    folded.add(candidate.flat.index);
    into.set(twin.flat.index, [...(into.get(twin.flat.index) ?? []), candidate.flat.node.ref as string]);
  });
  return { folded, into };
}

/** How many lines back a link is still "the same link again" (a card's image, title and caption links). */
export const TWIN_LINK_WINDOW = 8;

/**
 * A card often links its picture, its title and its caption to one address under one name: the repeats
 * join the first line as `(also [e187])` — still listed with their refs, one line instead of three.
 */
function twinLinks() {
  const recent: Array<{ key: string; line: number; base: string; also: string[] }> = [];
  const keyOf = (node: SnapshotNode, name: string) => `${node.url}\n${name}`;
  return {
    fold(node: SnapshotNode, lines: string[], pictures: readonly string[] = []): boolean {
      if (node.role !== 'link' || !node.ref || !node.url) return false;
      const name = (node.name ?? '').trim();
      const twin = recent.find(
        entry =>
          entry.line >= lines.length - TWIN_LINK_WINDOW && (entry.key === keyOf(node, name) || (!name && entry.key.startsWith(`${node.url}\n`))),
      );
      if (!twin) return false;
      twin.also.push(node.ref, ...pictures);
      lines[twin.line] = `${twin.base}${alsoSuffix(twin.also)}`;
      return true;
    },
    printed(node: SnapshotNode, lines: readonly string[]): void {
      if (node.role !== 'link' || !node.ref || !node.url) return;
      const line = lines.length - 1;
      recent.push({ key: keyOf(node, (node.name ?? '').trim()), line, base: lines[line] as string, also: [] });
      if (recent.length > TWIN_LINK_WINDOW) recent.shift();
    },
  };
}

export const SAME_ADDRESS_WINDOW = 6;
const SAME_ADDRESS_MIN_CHARS = 40;

/** A card's image link and title link go to one address: the second says so instead of printing it again. */
function recentAddresses(format: LineFormat): (node: SnapshotNode, line: string) => string {
  const recent: Array<{ url: string; ref: string }> = [];
  return (node, line) => {
    if (!node.url || !node.ref || node.role !== 'link') return line;
    const address = `→ ${formatAddress(node.url, format.origin)}`;
    const earlier = recent.find(entry => entry.url === node.url);
    recent.push({ url: node.url, ref: node.ref });
    if (recent.length > SAME_ADDRESS_WINDOW) recent.shift();
    if (!earlier || address.length < SAME_ADDRESS_MIN_CHARS || !line.includes(address)) return line;
    return line.replace(address, `→ (same as ${earlier.ref})`);
  };
}

type RenderedStub = Stub & { samples: string[] };

/** Closed blocks with no closed ancestor; neighbouring runs of one parent merge into one stub. */
function topStubs(input: RenderInput, positionAt: Int32Array): RenderedStub[] {
  const { blocks, closed } = input;
  const top: Block[] = [];
  const visit = (block: Block) => {
    if (closed[block.id]) {
      top.push(block);
      return;
    }
    for (const child of block.children) visit(blocks[child] as Block);
  };
  visit(blocks[0] as Block);
  top.sort((a, b) => a.index - b.index);
  const merged: Block[] = [];
  for (const block of top) {
    const last = merged.at(-1);
    if (last && last.kind === 'run' && block.kind === 'run' && last.parent === block.parent && last.end === block.index) {
      merged[merged.length - 1] = { ...last, end: block.end, siblings: last.siblings + block.siblings };
    } else {
      merged.push(block);
    }
  }
  // A collapsed region whose every line is pinned leaves nothing to open.
  return merged.map(block => describeStub(input, block, positionAt)).filter(stub => Object.values(stub.counts).some(n => n > 0));
}

function describeStub(input: RenderInput, block: Block, positionAt: Int32Array): RenderedStub {
  const { flat, candidates, pinned } = input;
  const counts: StubCounts = { links: 0, buttons: 0, fields: 0, rows: 0, items: 0, headings: 0, texts: 0 };
  const covers = new Set<string>();
  const labels: SampleCandidate[] = [];
  const start = block.kind === 'region' ? block.index + 1 : block.index;
  if (block.kind === 'region' && flat[block.index]?.node.ref) covers.add(flat[block.index]?.node.ref as string);
  for (let index = start; index < block.end; index++) {
    const item = flat[index] as FlatNode;
    const position = positionAt[index] ?? -1;
    if (position !== -1 && pinned[position]) continue;
    if (item.node.ref) covers.add(item.node.ref);
    if (position === -1) continue;
    const candidate = candidates[position] as Candidate;
    count(counts, item);
    for (const piece of candidate.group?.pieces ?? []) {
      if (piece.kind === 'element') count(counts, flat[piece.index] as FlatNode);
    }
    const label = (item.node.name || item.node.text)?.trim();
    if (!label || labels.length >= MAX_SAMPLE_CANDIDATES) continue;
    labels.push({ label, named: candidate.kind === 'heading' || candidate.kind === 'interactive' || candidate.kind === 'control' });
  }
  const shown = chooseStubSamples(labels, STUB_SAMPLES);
  // A run is named by its first ref; when that line stays printed (pinned), the first ref it hides names it instead.
  const ref = block.kind === 'run' && !covers.has(block.ref) ? (covers.values().next().value ?? block.ref) : block.ref;
  return { ref, index: block.index, end: block.end, kind: block.kind, counts, covers, samples: shown, siblings: block.siblings };
}

function count(counts: StubCounts, item: FlatNode): void {
  const node = item.node;
  if (node.role === 'link') counts.links++;
  else if (FORM_CONTROL_ROLES.has(node.role)) counts.fields++;
  else if (isActionable(item)) counts.buttons++;
  else if (node.role === 'row') counts.rows++;
  else if (node.role === 'listitem' || TABLE_CELL_ROLES.has(node.role)) counts.items++;
  else if (node.role === 'heading') counts.headings++;
  else counts.texts++;
}
