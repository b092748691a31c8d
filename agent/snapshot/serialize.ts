import { textMatchesKeywords, type Keyword } from './keywords';
import { PLAIN_TEXT_ROLES } from './roles';
import { spacingNote } from './spacing';
import { shortenText } from './text';
import type { NodeStates, ScrollState, SnapshotNode, StubCounts } from './types';

/**
 * The page state's line grammar. Every string that comes from the page — names, text, values, placeholders,
 * addresses, hints, the URL and title — is printed JSON-quoted (an address only bare when it is plain
 * printable ASCII without quotes, brackets or spaces), so a newline, a `[e99]`, `</page_state>` or a fake
 * header inside it stays inside its quotes. Everything outside quotes is ours:
 *   [ref] role "name" : "text" key=value → /address (states)
 *   [ref] text "running text" [ref] link "in place" → /address "more text"
 *   [ref] navigation "Main" (collapsed: 34 links, 2 buttons — "Home", "World", …)
 */

export const MAX_NAME_CHARS = 120;
/** Prose shows its whole first sentences up to this many characters (a longer first sentence whole, up to FIRST_SENTENCE_MAX). */
export const MAX_TEXT_CHARS = 150;
export const FIRST_SENTENCE_MAX = 400;
/** The article's opening paragraph (the lede) and what the agent expanded read further. */
export const LEDE_TEXT_CHARS = 400;
export const EXPANDED_TEXT_CHARS = 2000;
export const MAX_VALUE_CHARS = 240;
/** Addresses longer than this keep their start (scheme, host, first path segment) and their end (the file or slug). */
export const MAX_URL_CHARS = 48;
export const MAX_OPTIONS_SHOWN = 8;
export const MAX_INDENT = 8;
export const MAX_HINT_CHARS = 40;
/** Content whose label is prose (shortened at sentence ends), not a control's name. */
const READ_AS_TEXT = new Set([
  ...PLAIN_TEXT_ROLES,
  'listitem',
  'row',
  'heading',
  'cell',
  'gridcell',
  'caption',
  'blockquote',
  'note',
  'definition',
  'term',
]);

/** The role word the model sees: generic wrappers read as plain text, or as `clickable` when they take clicks. */
export function displayRole(node: SnapshotNode): string {
  if ((node.role === 'generic' || node.role === 'none' || node.role === 'presentation') && (node.clickable || node.selector)) return 'clickable';
  if ((node.role === 'generic' || node.role === 'none' || node.role === 'presentation') && node.scroller) return 'section';
  return PLAIN_TEXT_ROLES.has(node.role) ? 'text' : node.role;
}

export function truncate(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

/** JSON-quoted; a clipped value says how much is left out, outside the quotes. */
export function quote(value: string, max: number): string {
  if (value.length <= max) return JSON.stringify(value);
  return `${JSON.stringify(truncate(value, max))} (+${value.length - max + 1} chars)`;
}

/** The refs of twins folded into a line (a card's caption link, a byline's avatar): ` (also [e12], [e13])`, or nothing. */
export function alsoSuffix(refs: readonly string[]): string {
  return refs.length ? ` (also ${refs.map(ref => `[${ref}]`).join(', ')})` : '';
}

/** Long text keeps its whole first sentences, and says how much more there is. */
export function quoteText(value: string, max: number = MAX_TEXT_CHARS): string {
  const shortened = shortenText(value, max, Math.max(max, FIRST_SENTENCE_MAX));
  const quoted = JSON.stringify(shortened.text);
  return shortened.omitted > 0 ? `${quoted} (+${shortened.omitted} chars)` : quoted;
}

/** Campaign-tracking parameters (a web-wide convention, not any site's): they say nothing about where a link goes. */
const TRACKING_PARAM = /([?&])(utm_[a-z]+|fbclid|gclid|mc_[a-z]+|ref_src)=[^&#]*/gi;
const TRACKING_HINT = /[?&](utm_|fbclid|gclid|mc_|ref_src)/i;

/**
 * Where a link leads is told by its site and by how its path ends (`report-2023.pdf`, an article slug): a long
 * address keeps its origin (up to 40 characters) and its last characters; the middle goes.
 */
export function elideMiddle(url: string, max: number): string {
  if (url.length <= max) return url;
  const origin = /^[a-z][\w+.-]*:\/\/[^/?#]+/i.exec(url)?.[0].length ?? 0;
  const head = Math.max(max - Math.floor(max * 0.4) - 1, Math.min(origin + 1, 40));
  const tail = Math.max(12, max - head - 1);
  return `${url.slice(0, head)}…${url.slice(-tail)}`;
}

/** Plain addresses print bare; anything a page could use to break out of the line is quoted. */
export function formatAddress(url: string, origin: string | undefined): string {
  let shown = TRACKING_HINT.test(url)
    ? url
        .replace(TRACKING_PARAM, '$1')
        .replace(/[?&]+(?=#|$)/, '')
        .replace(/\?&+/, '?')
        .replace(/&{2,}/g, '&')
    : url;
  if (origin && shown.startsWith(origin) && /^[/?#]/.test(shown.slice(origin.length))) shown = shown.slice(origin.length);
  shown = elideMiddle(shown, MAX_URL_CHARS);
  return /^[\x21-\x7e]+$/.test(shown) && !/["\\[\]<>]/.test(shown) ? shown : JSON.stringify(shown);
}

/** A bare token for simple values (min=1, step=0.5), quoted otherwise. */
function token(value: string): string {
  return /^[\w.:+-]{1,40}$/.test(value) ? value : quote(value, 60);
}

/** One-line description for messages: `link "linux"`, `button "Follow"`, `textbox "Email"`. */
export function describeNode(node: SnapshotNode): string {
  const label = node.name ?? node.text ?? node.placeholder ?? node.hint?.label;
  const role = displayRole(node);
  return label ? `${role} ${quote(label, 60)}` : role;
}

export function formatStates(node: SnapshotNode): string[] {
  const states: NodeStates = node.states;
  const parts: string[] = [];
  if (states.level !== undefined) parts.push(`level ${states.level}`);
  if (states.checked === true) parts.push('checked');
  if (states.checked === 'mixed') parts.push('checked=mixed');
  if (states.selected) parts.push('selected');
  if (states.pressed === true) parts.push('pressed');
  if (states.pressed === 'mixed') parts.push('pressed=mixed');
  if (node.folder) parts.push(node.folder.open ? 'folder, open' : 'folder, closed');
  else if (states.expanded === true) parts.push('expanded');
  else if (states.expanded === false) parts.push('collapsed');
  if (states.disabled) parts.push('disabled');
  if (states.readonly) parts.push('readonly');
  if (states.required) parts.push('required');
  if (states.invalid) parts.push('invalid');
  if (node.track !== undefined) parts.push(`at ${node.track}% of its track`);
  if (node.scroller) parts.push(scrollerNote(node.scroller));
  return parts;
}

/** `scrolls: 52 of its 60 items hidden below` — what a list scrolling inside the page keeps out of sight. */
function scrollerNote(scroller: NonNullable<SnapshotNode['scroller']>): string {
  const hidden = [scroller.above ? `${scroller.above} above` : '', scroller.below ? `${scroller.below} below` : ''].filter(Boolean).join(', ');
  return hidden ? `scrolls: ${scroller.above + scroller.below} of its ${scroller.items} items hidden (${hidden})` : 'scrolls';
}

function formatOptions(options: string[], keywords: readonly Keyword[]): string {
  const shown = options.slice(0, MAX_OPTIONS_SHOWN);
  for (const option of options.slice(MAX_OPTIONS_SHOWN)) {
    if (textMatchesKeywords(option, keywords)) shown.push(option);
  }
  const more = options.length - shown.length;
  const list = shown.map(option => quote(option, 60)).join(', ');
  return more > 0 ? `options: ${list} (+${more} more)` : `options: ${list}`;
}

function formatControl(node: SnapshotNode): string[] {
  const control = node.control;
  if (!control) return [];
  const parts: string[] = [];
  if (control.type) parts.push(control.type === 'multiline' ? 'multiline' : `type=${control.type}`);
  if (control.multiple) parts.push('multiple');
  for (const key of ['min', 'max', 'step'] as const) {
    const value = control[key];
    if (value !== undefined) parts.push(`${key}=${token(value)}`);
  }
  if (control.pattern !== undefined) parts.push(`pattern=${quote(control.pattern, 60)}`);
  if (control.maxLength !== undefined) parts.push(`maxlength=${control.maxLength}`);
  return parts;
}

function formatHint(node: SnapshotNode): string[] {
  const hint = node.hint;
  if (!hint || node.name) return [];
  const parts: string[] = [];
  if (hint.label) parts.push(`label=${quote(hint.label, MAX_HINT_CHARS)}`);
  if (hint.icon) parts.push(`icon=${quote(hint.icon, MAX_HINT_CHARS)}`);
  if (hint.state) parts.push(`state=${quote(hint.state, MAX_HINT_CHARS)}`);
  if (hint.near) parts.push(`near=${quote(hint.near, MAX_HINT_CHARS)}`);
  return parts;
}

export interface LineContext {
  depth: number;
  /** How much prose this line shows (MAX_TEXT_CHARS unless it is the lede or was expanded). */
  textLimit?: number;
  keywords: readonly Keyword[];
  /** Show the landmark (for nodes printed out of a collapsed region). */
  showLandmark: boolean;
  origin?: string;
}

/** An element's own part of a line: `[e14] link "analytical-engine" → /ada/analytical-engine (states)`. */
export function formatElement(node: SnapshotNode, ctx: Omit<LineContext, 'depth'>, withNotes = true): string {
  const parts: string[] = [];
  if (node.ref) parts.push(`[${node.ref}]`);
  parts.push(displayRole(node));
  // Padding around a name says nothing (a value's padding does, and shows in value=).
  const name = node.name?.trim();
  const text = node.text?.trim();
  const label = name || text;
  const textLimit = ctx.textLimit ?? MAX_TEXT_CHARS;
  if (label) parts.push(READ_AS_TEXT.has(node.role) || !name ? quoteText(label, textLimit) : quote(label, MAX_NAME_CHARS));
  if (name && text && text !== name) parts.push(`: ${quoteText(text, textLimit)}`);
  if (node.placeholder && node.placeholder !== node.name) parts.push(`placeholder=${quote(node.placeholder, 60)}`);
  if (node.value !== undefined) parts.push(`value=${quote(node.value, MAX_VALUE_CHARS)}`);
  parts.push(...formatControl(node), ...formatHint(node));
  if (node.options?.length) parts.push(formatOptions(node.options, ctx.keywords));
  if (node.url !== undefined && node.url !== '') parts.push(`→ ${formatAddress(node.url, ctx.origin)}`);
  if (withNotes) {
    const notes = formatStates(node);
    const spacing = node.value === undefined ? undefined : spacingNote(node.value);
    if (spacing) notes.push(spacing);
    if (ctx.showLandmark && node.landmark) notes.push(`in ${node.landmark}`);
    if (notes.length) parts.push(`(${notes.join(', ')})`);
  }
  return parts.join(' ');
}

export function indent(depth: number): string {
  return ' '.repeat(Math.min(depth, MAX_INDENT));
}

/** `[e14] link "analytical-engine" → /ada/analytical-engine`, indented by nesting depth. */
export function formatNodeLine(node: SnapshotNode, ctx: LineContext): string {
  return indent(ctx.depth) + formatElement(node, ctx);
}

const COUNT_WORDS: Array<[keyof StubCounts, string, string]> = [
  ['links', 'link', 'links'],
  ['buttons', 'button', 'buttons'],
  ['fields', 'field', 'fields'],
  ['rows', 'row', 'rows'],
  ['items', 'item', 'items'],
  ['headings', 'heading', 'headings'],
  ['texts', 'text', 'texts'],
];

export function formatCounts(counts: StubCounts): string {
  const parts = COUNT_WORDS.filter(([key]) => counts[key] > 0).map(([key, one, many]) => `${counts[key]} ${counts[key] === 1 ? one : many}`);
  return parts.length ? parts.join(', ') : 'nothing readable';
}

/** `[e7] navigation "Main" (collapsed: 34 links, 2 buttons — "Home", "World", …)`. */
export function formatStubLine(
  node: SnapshotNode | undefined,
  ref: string,
  kind: 'region' | 'run',
  counts: StubCounts,
  samples: readonly string[],
  depth: number,
): string {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  const role = kind === 'run' ? 'more' : stubRole(node);
  const name = kind === 'region' && node?.name ? ` ${quote(node.name, 60)}` : '';
  const shown = samples.map(sample => JSON.stringify(truncate(sample, 24))).join(', ');
  const examples = shown ? ` — ${shown}${total > samples.length ? ', …' : ''}` : '';
  return `${indent(depth)}[${ref}] ${role}${name} (collapsed: ${formatCounts(counts)}${examples})`;
}

function stubRole(node: SnapshotNode | undefined): string {
  if (!node) return 'section';
  if (node.role === 'generic' || node.role === 'none' || node.role === 'presentation') return node.clickable ? 'clickable' : 'section';
  return node.role;
}

export interface HeaderFacts {
  url: string;
  title: string;
  scroll: ScrollState;
  rawNodes: number;
  lines: number;
  collapsed: number;
  belowFold: number;
  /** Items that lists scrolling inside the page hide (scrollers.ts). */
  inScrollers?: number;
}

export function formatHeader(facts: HeaderFacts): string {
  const { scroll } = facts;
  const counts = [`${facts.rawNodes} nodes`, `${facts.lines} lines`];
  // How to open them is in the system prompt's page-state guide, said once rather than on every observation.
  if (facts.collapsed > 0) counts.push(`${facts.collapsed} collapsed`);
  counts.push(`${facts.belowFold} below the fold`);
  if (facts.inScrollers) counts.push(`${facts.inScrollers} hidden in scrolling lists`);
  return [
    `URL: ${JSON.stringify(facts.url)}`,
    `Title: ${JSON.stringify(facts.title)}`,
    `Scroll: ${Math.round(scroll.y)}/${Math.round(scroll.maxY)} px (viewport ${scroll.viewportHeight}) · ${counts.join(', ')}`,
  ].join('\n');
}
