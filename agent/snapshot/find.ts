import type { FlatNode } from './raw';
import { formatElement, quote } from './serialize';
import type { Observation, SnapshotNode } from './types';

/**
 * `find "<text>"`: every element of the latest observation whose name, text, value, placeholder, address or
 * hint holds the words — collapsed and pruned parts included — printed as page-state lines with refs. It
 * reads the observation already taken, so the refs are valid and the page is not touched.
 */

export const MAX_FOUND = 20;

export interface Found {
  refs: string[];
  lines: string[];
  total: number;
}

export function findInObservation(observation: Pick<Observation, 'outline'>, query: string, limit = MAX_FOUND): Found {
  const wanted = normalize(query);
  const found: Found = { refs: [], lines: [], total: 0 };
  if (!wanted) return found;
  const entries = observation.outline.entries as readonly FlatNode[];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!normalize(searchableText(entry.node)).includes(wanted)) continue;
    const target = entry.node.ref ? entry : nearestWithRef(entries, entry);
    if (!target?.node.ref || seen.has(target.node.ref)) continue;
    seen.add(target.node.ref);
    found.total++;
    if (found.lines.length >= limit) continue;
    found.refs.push(target.node.ref);
    found.lines.push(describeFound(entries, target, entry));
  }
  return found;
}

function searchableText(node: SnapshotNode): string {
  return [node.name, node.text, node.value, node.placeholder, node.url, node.hint?.label, node.hint?.icon, node.hint?.state, node.hint?.near]
    .filter(Boolean)
    .join(' ');
}

function normalize(value: string): string {
  return value.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** A bare text has no ref: the element around it is what can be read, clicked or expanded. */
function nearestWithRef(entries: readonly FlatNode[], entry: FlatNode): FlatNode | undefined {
  for (let parent = entries[entry.parent]; parent; parent = entries[parent.parent]) {
    if (parent.node.ref) return parent;
  }
  return undefined;
}

function describeFound(entries: readonly FlatNode[], target: FlatNode, match: FlatNode): string {
  const line = formatElement(target.node, { keywords: [], showLandmark: false });
  const text = match !== target ? ` : ${quote(match.node.text ?? match.node.name ?? '', 160)}` : '';
  const bearings: string[] = [];
  if (target.node.landmark) bearings.push(`in ${target.node.landmark}`);
  const heading = headingAbove(entries, target);
  if (heading) bearings.push(`under ${quote(heading, 80)}`);
  return `${line}${text}${bearings.length ? ` (${bearings.join(', ')})` : ''}`;
}

export const HEADING_LOOKBACK = 400;

/** The nearest heading before the element: a reader's bearing on a long page. */
function headingAbove(entries: readonly FlatNode[], target: FlatNode): string | undefined {
  for (let index = target.index - 1; index >= 0 && index > target.index - HEADING_LOOKBACK; index--) {
    const node = entries[index]?.node;
    if (node?.role === 'heading' && node.name) return node.name;
  }
  return undefined;
}
