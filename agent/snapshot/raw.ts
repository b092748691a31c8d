import { z } from 'zod';
import { LANDMARK_ROLES, VALUE_TEXT_ROLES } from './roles';
import { collapseWhitespace } from './text';
import type { Box, NodeStates, SnapshotNode } from './types';

/** One node of `page.ariaSnapshotJSON({ mode: 'ai', boxes: true })`; unknown keys are tolerated. */
export interface AriaJsonNode {
  role: string;
  name?: string;
  text?: string;
  ref?: string;
  url?: string;
  placeholder?: string;
  checked?: boolean | 'mixed';
  disabled?: boolean;
  expanded?: boolean;
  selected?: boolean;
  pressed?: boolean | 'mixed';
  level?: number;
  invalid?: unknown;
  active?: boolean;
  cursor?: string;
  ariaHidden?: boolean;
  box?: Box;
  children?: Array<string | AriaJsonNode>;
}

const boxSchema = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });
const ariaJsonNodeSchema: z.ZodType<AriaJsonNode> = z.looseObject({
  role: z.string(),
  name: z.string().optional(),
  text: z.string().optional(),
  ref: z.string().optional(),
  url: z.string().optional(),
  placeholder: z.string().optional(),
  checked: z.union([z.boolean(), z.literal('mixed')]).optional(),
  disabled: z.boolean().optional(),
  expanded: z.boolean().optional(),
  selected: z.boolean().optional(),
  pressed: z.union([z.boolean(), z.literal('mixed')]).optional(),
  level: z.number().optional(),
  invalid: z.unknown().optional(),
  active: z.boolean().optional(),
  cursor: z.string().optional(),
  ariaHidden: z.boolean().optional(),
  box: boxSchema.optional(),
  get children() {
    return z.array(z.union([z.string(), ariaJsonNodeSchema])).optional();
  },
});
export const ariaSnapshotSchema = z.array(z.union([z.string(), ariaJsonNodeSchema]));

/** A snapshot node plus the tree facts pruning needs, in document order. */
export interface FlatNode {
  node: SnapshotNode;
  index: number;
  parent: number;
  depth: number;
  /** Exclusive end of this node's subtree in the flat list. */
  end: number;
  /** A bare text string between elements (never has a ref). */
  fragment: boolean;
}

export interface RawSnapshot {
  flat: FlatNode[];
  refs: Map<string, SnapshotNode>;
  rawChars: number;
}

export interface Viewport {
  width: number;
  height: number;
}

export function parseSnapshot(json: unknown): Array<string | AriaJsonNode> {
  return ariaSnapshotSchema.parse(json);
}

export function flattenSnapshot(roots: Array<string | AriaJsonNode>, viewport: Viewport): RawSnapshot {
  const state: FlattenState = { flat: [], refs: new Map(), rawChars: 0, viewport };
  for (const root of roots) visit(state, root, { parent: -1, depth: 0, offsetX: 0, offsetY: 0, parentInViewport: true });
  return { flat: state.flat, refs: state.refs, rawChars: state.rawChars };
}

interface FlattenState {
  flat: FlatNode[];
  refs: Map<string, SnapshotNode>;
  rawChars: number;
  viewport: Viewport;
}

interface VisitContext {
  parent: number;
  depth: number;
  offsetX: number;
  offsetY: number;
  parentInViewport: boolean;
  landmark?: string;
  frameRef?: string;
}

function visit(state: FlattenState, input: string | AriaJsonNode, ctx: VisitContext): void {
  const raw: AriaJsonNode = typeof input === 'string' ? { role: 'text', text: input } : input;
  const node = toSnapshotNode(raw, ctx, state.viewport);
  const index = state.flat.length;
  const flat: FlatNode = {
    node,
    index,
    parent: ctx.parent,
    depth: ctx.depth,
    end: index + 1,
    fragment: typeof input === 'string',
  };
  state.flat.push(flat);
  if (node.ref) state.refs.set(node.ref, node);
  state.rawChars += yamlLineLength(raw, ctx.depth);

  const children = raw.children ?? [];
  if (raw.role === 'combobox' && foldSelectOptions(node, children)) {
    state.rawChars += children.length * (ctx.depth * 2 + 20);
  } else {
    const isFrame = raw.role === 'iframe';
    const childCtx: VisitContext = {
      parent: index,
      depth: ctx.depth + 1,
      offsetX: isFrame && raw.box ? ctx.offsetX + raw.box.x : ctx.offsetX,
      offsetY: isFrame && raw.box ? ctx.offsetY + raw.box.y : ctx.offsetY,
      parentInViewport: node.inViewport,
      landmark: LANDMARK_ROLES.has(raw.role) ? raw.role : ctx.landmark,
      frameRef: isFrame && raw.ref ? raw.ref : ctx.frameRef,
    };
    for (const child of children) visit(state, child, childCtx);
  }
  flat.end = state.flat.length;
}

function toSnapshotNode(raw: AriaJsonNode, ctx: VisitContext, viewport: Viewport): SnapshotNode {
  const box = raw.box && { ...raw.box, x: raw.box.x + ctx.offsetX, y: raw.box.y + ctx.offsetY };
  const hasArea = !!box && box.width > 0 && box.height > 0;
  const node: SnapshotNode = {
    role: raw.role,
    states: toStates(raw),
    inViewport: hasArea ? intersectsViewport(box, viewport) : ctx.parentInViewport,
  };
  if (raw.ref) node.ref = raw.ref;
  if (raw.cursor === 'pointer') node.clickable = true;
  if (raw.name) node.name = collapseWhitespace(raw.name);
  // A control's value is printed exactly as the page holds it: leading, trailing and double spaces matter to a copy.
  if (raw.text !== undefined && VALUE_TEXT_ROLES.has(raw.role)) {
    if (raw.text !== '') node.value = raw.text;
  } else if (raw.text !== undefined) {
    const text = collapseWhitespace(raw.text);
    if (text) node.text = text;
  }
  if (raw.url !== undefined) node.url = raw.url;
  if (raw.placeholder) node.placeholder = collapseWhitespace(raw.placeholder);
  if (box) node.box = box;
  if (ctx.landmark) node.landmark = ctx.landmark;
  if (ctx.frameRef) node.frameRef = ctx.frameRef;
  return node;
}

function toStates(raw: AriaJsonNode): NodeStates {
  const states: NodeStates = {};
  if (raw.checked !== undefined) states.checked = raw.checked;
  if (raw.selected !== undefined) states.selected = raw.selected;
  if (raw.expanded !== undefined) states.expanded = raw.expanded;
  if (raw.disabled !== undefined) states.disabled = raw.disabled;
  if (raw.pressed !== undefined) states.pressed = raw.pressed;
  if (raw.level !== undefined) states.level = raw.level;
  if (raw.invalid !== undefined && raw.invalid !== false) states.invalid = true;
  return states;
}

export function intersectsViewport(box: Box, viewport: Viewport): boolean {
  return box.y < viewport.height && box.y + box.height > 0 && box.x < viewport.width && box.x + box.width > 0;
}

/** A native <select>'s options carry no ref, so they are folded into the combobox as a label list. */
function foldSelectOptions(node: SnapshotNode, children: Array<string | AriaJsonNode>): boolean {
  const options: AriaJsonNode[] = [];
  if (children.length === 0 || !collectRefLessOptions(children, options)) return false;
  const label = (option: AriaJsonNode): string => collapseWhitespace(option.name ?? option.text ?? '');
  node.options = options.map(label);
  const selected = options.filter(option => option.selected).map(label);
  if (selected.length > 0 && node.value === undefined) node.value = selected.join(', ');
  return true;
}

function collectRefLessOptions(items: Array<string | AriaJsonNode>, into: AriaJsonNode[]): boolean {
  for (const item of items) {
    if (typeof item === 'string' || item.ref) return false;
    if (item.role === 'option') into.push(item);
    else if (item.role !== 'group' || !collectRefLessOptions(item.children ?? [], into)) return false;
  }
  return true;
}

/** Mirrors the length of Playwright's YAML line for a node, so the raw size needs no second snapshot. */
function yamlLineLength(raw: AriaJsonNode, depth: number): number {
  let length = depth * 2 + 2 + raw.role.length;
  if (raw.name) length += raw.name.length + 3;
  if (raw.ref) length += raw.ref.length + 7;
  if (raw.cursor) length += 17;
  for (const flag of ['checked', 'disabled', 'expanded', 'selected', 'pressed', 'active'] as const) {
    if (raw[flag]) length += flag.length + 3;
  }
  if (raw.level) length += 10;
  if (raw.text) length += raw.text.length + 2;
  if (raw.children?.length) length += 1;
  if (raw.url !== undefined) length += depth * 2 + 10 + raw.url.length;
  if (raw.placeholder !== undefined) length += depth * 2 + 18 + raw.placeholder.length;
  return length + 1;
}
