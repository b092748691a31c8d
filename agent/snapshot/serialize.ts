import { PLAIN_TEXT_ROLES } from './roles';
import type { NodeStates, ScrollState, SnapshotNode } from './types';

export const MAX_NAME_CHARS = 120;
export const MAX_TEXT_CHARS = 240;
export const MAX_URL_CHARS = 200;
export const MAX_OPTIONS_SHOWN = 8;
export const MAX_INDENT = 8;

/** The role word the model sees: generic wrappers read as plain text, or as `clickable` when they take clicks. */
export function displayRole(node: SnapshotNode): string {
  if (node.role === 'generic' && node.clickable) return 'clickable';
  return PLAIN_TEXT_ROLES.has(node.role) ? 'text' : node.role;
}

export function truncate(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

/** JSON-quoted (so a page cannot forge line breaks or quotes); a clipped value notes its full length outside the quotes. */
function quote(value: string, max: number): string {
  const quoted = JSON.stringify(truncate(value, max));
  return value.length <= max ? quoted : `${quoted} (${value.length} chars)`;
}

/** One-line description for messages: `link "linux"`, `button "Follow"`, `textbox "Email"`. */
export function describeNode(node: SnapshotNode): string {
  const label = node.name ?? node.text ?? node.placeholder;
  const role = displayRole(node);
  return label ? `${role} ${quote(label, 60)}` : role;
}

function formatStates(states: NodeStates): string[] {
  const parts: string[] = [];
  if (states.level !== undefined) parts.push(`level ${states.level}`);
  if (states.checked === true) parts.push('checked');
  if (states.checked === 'mixed') parts.push('checked=mixed');
  if (states.selected) parts.push('selected');
  if (states.pressed === true) parts.push('pressed');
  if (states.pressed === 'mixed') parts.push('pressed=mixed');
  if (states.expanded) parts.push('expanded');
  if (states.disabled) parts.push('disabled');
  if (states.required) parts.push('required');
  if (states.invalid) parts.push('invalid');
  return parts;
}

function formatOptions(options: string[], keywords: readonly string[]): string {
  const shown = options.slice(0, MAX_OPTIONS_SHOWN);
  for (const option of options.slice(MAX_OPTIONS_SHOWN)) {
    const lower = option.toLowerCase();
    if (keywords.some((keyword) => lower.includes(keyword))) shown.push(option);
  }
  const more = options.length - shown.length;
  const list = shown.map((option) => quote(option, 60)).join(', ');
  return more > 0 ? `options: ${list} (+${more} more)` : `options: ${list}`;
}

export interface LineContext {
  depth: number;
  /** Lower-cased task keywords, to surface matching <select> options beyond the first few. */
  keywords: readonly string[];
  /** Show the landmark (for page-chrome nodes kept because they match a keyword). */
  showLandmark: boolean;
}

/** `[e14] link "analytical-engine" → /ada/analytical-engine`, indented by nesting depth. */
export function formatNodeLine(node: SnapshotNode, ctx: LineContext): string {
  const parts: string[] = [];
  if (node.ref) parts.push(`[${node.ref}]`);
  parts.push(displayRole(node));
  const isPlainText = PLAIN_TEXT_ROLES.has(node.role) || node.role === 'listitem' || node.role === 'row';
  const maxLabel = isPlainText ? MAX_TEXT_CHARS : MAX_NAME_CHARS;
  const label = node.name ?? node.text;
  if (label) parts.push(quote(label, maxLabel));
  if (node.name && node.text && node.text !== node.name) parts.push(`: ${quote(node.text, MAX_TEXT_CHARS)}`);
  if (node.placeholder && node.placeholder !== node.name) parts.push(`placeholder=${quote(node.placeholder, 60)}`);
  if (node.value !== undefined) parts.push(`value=${quote(node.value, MAX_TEXT_CHARS)}`);
  if (node.options?.length) parts.push(formatOptions(node.options, ctx.keywords));
  if (node.url) parts.push(`→ ${truncate(node.url, MAX_URL_CHARS)}`);
  const notes = formatStates(node.states);
  if (ctx.showLandmark && node.landmark) notes.push(`in ${node.landmark}`);
  if (notes.length) parts.push(`(${notes.join(', ')})`);
  return ' '.repeat(Math.min(ctx.depth, MAX_INDENT)) + parts.join(' ');
}

export interface HeaderFacts {
  url: string;
  title: string;
  scroll: ScrollState;
  rawNodes: number;
  prunedNodes: number;
  chromeRegions: number;
  overBudget: number;
  belowFold: number;
}

export function formatHeader(facts: HeaderFacts): string {
  const { scroll } = facts;
  const counts = [`${facts.rawNodes} nodes`, `${facts.prunedNodes} pruned`];
  if (facts.chromeRegions > 0) counts[1] += ` (incl. ${facts.chromeRegions} chrome region${facts.chromeRegions === 1 ? '' : 's'})`;
  if (facts.overBudget > 0) counts.push(`${facts.overBudget} trimmed to fit the token budget`);
  counts.push(`${facts.belowFold} below the fold`);
  return [
    `URL: ${facts.url}`,
    `Title: ${facts.title}`,
    `Scroll: ${Math.round(scroll.y)}/${Math.round(scroll.maxY)} px (viewport ${scroll.viewportHeight}) · ${counts.join(', ')}`,
  ].join('\n');
}
