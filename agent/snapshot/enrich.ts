import { boxKey, hintOf, type PlacedClickables } from './clickables';
import type { ClickableFact, ControlFact, PageMetrics, RangeFact } from './page-metrics';
import type { FlatNode } from './raw';
import { FORM_CONTROL_ROLES } from './roles';
import { dedupeRepeatedName } from './text';
import type { ControlInfo, SnapshotNode } from './types';

export const MASKED_VALUE = '********';

const GENERIC_ROLES = new Set(['generic', 'none', 'presentation']);

/** Field names that hold credentials even when the page did not use type=password (or lives in a frame we cannot inspect). */
const SECRET_FIELD_NAME =
  /pass(word|code|phrase)|passwort|mot de passe|contrase|\bpin\b|secret|api[ -]?key|token|one[- ]time|\botp\b|\bcvv\b|\bcvc\b|security code/i;

/** Input types whose value format the model must know to fill them (text, search and hidden say nothing). */
const TELLING_INPUT_TYPES = new Set([
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
  'number',
  'email',
  'tel',
  'url',
  'password',
  'file',
  'range',
  'color',
]);

/**
 * Adds what the AI snapshot leaves out, from the page-side facts matched by box (Playwright rounds snapshot
 * boxes the way page-metrics does; child-frame nodes match by name only): input types and formats,
 * required and read-only, masked password values (the snapshot prints a typed password in clear), hints for
 * name-less controls, folders, and CSS paths for the clickables the snapshot lacks.
 */
export function enrichNodes(
  flat: readonly FlatNode[],
  metrics: Pick<PageMetrics, 'controls' | 'sublists' | 'toggles' | 'ranges'>,
  placed: PlacedClickables,
): void {
  const controls = new Map(metrics.controls.map(fact => [boxKey(fact.box), fact]));
  const sublists = new Map(metrics.sublists.map(fact => [boxKey(fact.box), fact]));
  const toggles = new Map(metrics.toggles.map(fact => [boxKey(fact.box), fact]));
  const ranges = new Map(metrics.ranges.map(fact => [boxKey(fact.box), fact]));
  for (const item of flat) {
    const node = item.node;
    const key = node.box && !node.frameRef ? boxKey(node.box) : undefined;
    const control = key ? controls.get(key) : undefined;
    if (FORM_CONTROL_ROLES.has(node.role) || control) enrichControl(node, control);
    const range = key && !control ? ranges.get(key) : undefined;
    if (range) enrichRange(node, range);
    if (node.ref) {
      const fact = placed.hints.get(node.ref) ?? placed.added.get(node.ref);
      if (fact && !hasWords(node.text) && !hasReadableContent(flat, item)) {
        node.hint = hintOf(fact);
        if (fact.track !== undefined) node.track = fact.track;
      }
      const added = placed.added.get(node.ref);
      if (added) node.selector = added.selector;
      if (added?.element) node.element = added.element;
      if (added?.text) node.name = added.text;
      const taker = placed.clicks.get(node.ref) ?? added;
      if (taker) markClickTaker(node, taker);
    }
    const toggle = key ? toggles.get(key) : undefined;
    if (toggle && node.states.expanded === undefined) node.states.expanded = toggle.expanded;
    if (toggle?.summary && node.ref) node.clickable = true;
    const sublist = key ? sublists.get(key) : undefined;
    if (node.role === 'treeitem' && node.states.expanded !== undefined) node.folder = { open: node.states.expanded };
    else if (sublist && (node.role === 'listitem' || node.role === 'treeitem')) node.folder = { open: sublist.open };
    if (node.name && item.end - item.index > 2) node.name = dedupeRepeatedName(node.name, childLabels(flat, item));
  }
}

/** A slider drawn without an input shows its ARIA value, and its bounds when the page gives them. */
function enrichRange(node: SnapshotNode, fact: RangeFact): void {
  if (node.value === undefined) node.value = fact.value;
  if (fact.min === undefined && fact.max === undefined) return;
  node.control = { ...node.control, ...(fact.min !== undefined && { min: fact.min }), ...(fact.max !== undefined && { max: fact.max }) };
}

/** What the page says about an element that takes clicks and has no role to say it: that it does, and whether it is on. */
function markClickTaker(node: SnapshotNode, fact: ClickableFact): void {
  if (!GENERIC_ROLES.has(node.role)) return;
  node.clickable = true;
  for (const name of ['pressed', 'checked', 'selected'] as const) if (fact[name] !== undefined) node.states[name] = fact[name];
}

function enrichControl(node: SnapshotNode, fact: ControlFact | undefined): void {
  if (fact) {
    if (fact.required) node.states.required = true;
    if (fact.readonly) node.states.readonly = true;
    const control: ControlInfo = {};
    if (fact.tag === 'textarea') control.type = 'multiline';
    else if (TELLING_INPUT_TYPES.has(fact.type)) control.type = fact.type;
    for (const name of ['min', 'max', 'step', 'pattern'] as const) if (fact[name] !== undefined) control[name] = fact[name];
    if (fact.maxLength !== undefined && fact.maxLength < 10_000) control.maxLength = fact.maxLength;
    if (fact.multiple) control.multiple = true;
    if (Object.keys(control).length > 0) node.control = control;
    if (fact.exactValue !== undefined) node.value = fact.exactValue;
  }
  const isSecret = fact?.password === true || SECRET_FIELD_NAME.test(`${node.name ?? ''} ${node.placeholder ?? ''}`);
  if (isSecret && node.value) node.value = MASKED_VALUE;
}

/** A link around a named image or text already says what it is: no hint needed. A mark ("♡", "+") says nothing. */
function hasReadableContent(flat: readonly FlatNode[], item: FlatNode): boolean {
  for (let index = item.index + 1; index < item.end; index++) {
    const node = flat[index]?.node;
    if (hasWords(node?.name) || hasWords(node?.text)) return true;
  }
  return false;
}

function hasWords(text: string | undefined): boolean {
  return text !== undefined && /[\p{L}\p{N}]/u.test(text);
}

function childLabels(flat: readonly FlatNode[], item: FlatNode): string[] {
  const labels: string[] = [];
  for (let index = item.index + 1; index < item.end; index++) {
    const child = flat[index];
    if (!child || child.parent !== item.index) continue;
    const label = child.node.name ?? child.node.text;
    if (label) labels.push(label);
  }
  return labels;
}
