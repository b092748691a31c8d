import type { FlatNode } from './raw';
import { CHROME_ROLES, INTERACTIVE_ROLES, TABLE_CELL_ROLES } from './roles';

/** Tree-shape questions pruning asks: which subtrees are page chrome or dialogs, how tables fold. */

export interface ChromeMask {
  mask: Uint8Array;
  regions: number;
}

/**
 * banner/contentinfo are site chrome by ARIA definition; a navigation or complementary region inside
 * `main` is page content (pagination, in-page tabs) and stays. If dropping chrome would leave nothing
 * worth showing, the page *is* its chrome (a sitemap, a menu page) and nothing is dropped.
 */
export function markSiteChrome(flat: readonly FlatNode[], isWorthShowing: (item: FlatNode) => boolean): ChromeMask {
  const mask = new Uint8Array(flat.length);
  let regions = 0;
  for (const item of flat) {
    if (mask[item.index] || !CHROME_ROLES.has(item.node.role)) continue;
    const role = item.node.role;
    if ((role === 'navigation' || role === 'complementary') && hasAncestorRole(flat, item, 'main')) continue;
    mask.fill(1, item.index, item.end);
    regions++;
  }
  const contentIsEmpty = regions > 0 && !flat.some((item) => !mask[item.index] && isWorthShowing(item));
  if (contentIsEmpty) return { mask: new Uint8Array(flat.length), regions: 0 };
  return { mask, regions };
}

function hasAncestorRole(flat: readonly FlatNode[], item: FlatNode, role: string): boolean {
  for (let parent = flat[item.parent]; parent; parent = flat[parent.parent]) {
    if (parent.node.role === role) return true;
  }
  return false;
}

export function markSubtrees(flat: readonly FlatNode[], isRoot: (item: FlatNode) => boolean): Uint8Array {
  const mask = new Uint8Array(flat.length);
  for (const item of flat) {
    if (!mask[item.index] && isRoot(item)) mask.fill(1, item.index, item.end);
  }
  return mask;
}

/**
 * A table row becomes one line, `row "Ada | 36"`, instead of a line per cell: a 50×6 table costs 50
 * lines, not 350. Interactive descendants (a link in a cell) keep their own lines under the row.
 * Returns the mask of nodes folded into their row.
 */
export function foldTableRows(flat: readonly FlatNode[]): Uint8Array {
  const consumed = new Uint8Array(flat.length);
  for (const row of flat) {
    if (row.node.role !== 'row' || consumed[row.index]) continue;
    const cells: string[] = [];
    for (let index = row.index + 1; index < row.end; index++) {
      const child = flat[index];
      if (!child) break;
      if (INTERACTIVE_ROLES.has(child.node.role) || child.node.clickable) {
        index = child.end - 1;
        continue;
      }
      consumed[index] = 1;
      if (child.parent === row.index && TABLE_CELL_ROLES.has(child.node.role)) cells.push(cellLabel(flat, child));
    }
    const text = cells.join(' | ').trim();
    if (!row.node.name && text.replace(/[\s|]/g, '') !== '') row.node.text = text;
  }
  return consumed;
}

function cellLabel(flat: readonly FlatNode[], cell: FlatNode): string {
  if (cell.node.name) return cell.node.name;
  if (cell.node.text) return cell.node.text;
  const parts: string[] = [];
  for (let index = cell.index + 1; index < cell.end; index++) {
    const child = flat[index]?.node;
    const label = child?.name ?? child?.text ?? child?.value;
    if (label) parts.push(label);
  }
  return parts.join(' ');
}

export function enclosingTable(flat: readonly FlatNode[], item: FlatNode): FlatNode | undefined {
  for (let current: FlatNode | undefined = item; current; current = flat[current.parent]) {
    const role = current.node.role;
    if (role === 'table' || role === 'grid' || role === 'treegrid') return current;
  }
  return undefined;
}
