import type { FlatNode } from './raw';
import { INTERACTIVE_ROLES, TABLE_CELL_ROLES } from './roles';
import { isMeaningfulText } from './text';

/**
 * A data row becomes one line, `row "Ada | 36"`, instead of a line per cell: a 50×6 table costs 50 lines,
 * not 350. Controls in a cell keep their own lines under the row. A layout row — one row holding a page's
 * headline, byline and body, or rows of nested tables — is not data: it is descended into like any
 * container, never folded into one cut line.
 */

export const MAX_DATA_ROW_CELLS = 16;
export const MAX_DATA_ROW_CHARS = 400;
const BLOCK_ROLES = new Set([
  'table',
  'row',
  'heading',
  'paragraph',
  'list',
  'listitem',
  'article',
  'region',
  'navigation',
  'main',
  'form',
  'banner',
  'contentinfo',
  'complementary',
  'blockquote',
  'figure',
]);

const TABLE_PART_ROLES = new Set(['table', 'grid', 'treegrid', 'rowgroup', 'row', ...TABLE_CELL_ROLES]);
/** A table's own name (its summary or caption attribute) labels the table; it is no content of the cells. */
const TABLE_ROLES = new Set(['table', 'grid', 'treegrid']);

/**
 * A table part made of cells that hold no words, no value and nothing to act on: a bar graph or a spacer drawn
 * with cells (a diffstat's bars, a rating's filled cells). It says nothing a reader of the page state can use.
 */
export function isGraphicOnly(flat: readonly FlatNode[], item: FlatNode): boolean {
  if (!TABLE_PART_ROLES.has(item.node.role)) return false;
  let parts = 0;
  for (let index = item.index + 1; index < item.end; index++) {
    const node = (flat[index] as FlatNode).node;
    if (INTERACTIVE_ROLES.has(node.role) || node.clickable || node.value !== undefined || isMeaningfulText(node.text)) return false;
    if (TABLE_PART_ROLES.has(node.role)) parts++;
    if (!TABLE_ROLES.has(node.role) && isMeaningfulText(node.name)) return false;
  }
  return parts > 0;
}

/** Returns the mask of nodes folded into their row; sets each folded row's text. */
export function foldDataRows(flat: readonly FlatNode[]): Uint8Array {
  const consumed = new Uint8Array(flat.length);
  for (const row of flat) {
    if (row.node.role !== 'row' || consumed[row.index] || !isDataRow(flat, row)) continue;
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
    // A last cell holding only a graphic (a bar, an icon without words) leaves no empty column behind.
    while (cells.length > 1 && !(cells.at(-1) as string).trim()) cells.pop();
    const text = cells.join(' | ').trim();
    if (!row.node.name && text.replace(/[\s|]/g, '') !== '') row.node.text = text;
  }
  return consumed;
}

function isDataRow(flat: readonly FlatNode[], row: FlatNode): boolean {
  let cells = 0;
  let chars = 0;
  for (let index = row.index + 1; index < row.end; index++) {
    const child = flat[index];
    if (!child) break;
    if (BLOCK_ROLES.has(child.node.role) && isGraphicOnly(flat, child)) {
      index = child.end - 1;
      continue;
    }
    if (BLOCK_ROLES.has(child.node.role)) return false;
    if (child.parent === row.index && TABLE_CELL_ROLES.has(child.node.role)) cells++;
    if (child.fragment || !child.node.name) chars += (child.node.text ?? '').length;
    else if (TABLE_CELL_ROLES.has(child.node.role)) chars += child.node.name.length;
    if (cells > MAX_DATA_ROW_CELLS || chars > MAX_DATA_ROW_CHARS) return false;
  }
  return true;
}

function cellLabel(flat: readonly FlatNode[], cell: FlatNode): string {
  // Its name comes from what it holds: a nested graphic's own label ("file diffstat") would pass for the cell's words.
  if (isGraphicOnly(flat, cell)) return '';
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
