import type { AriaJsonNode } from './raw';
import type { Box } from './types';

/**
 * Siblings side by side on one line are listed in the order the pixels show them, not the document's: a toolbar
 * reversed by `flex-direction: row-reverse`, rearranged with `order`, or made of icons floated right (the first in the
 * document is the rightmost) reads as a person sees it, left to right (right to left on a right-to-left page). Only
 * runs of siblings that all sit on one line without overlapping are reordered; text between them keeps its place.
 */
export function orderAsShown(items: Array<string | AriaJsonNode>, rightToLeft: boolean): void {
  let start = 0;
  for (let index = 0; index <= items.length; index++) {
    const item = items[index];
    if (item !== undefined && typeof item !== 'string' && hasArea(item.box)) continue;
    if (index - start > 1) reorderRun(items, start, index, rightToLeft);
    start = index + 1;
  }
  for (const item of items) if (typeof item !== 'string' && item.children) orderAsShown(item.children, rightToLeft);
}

function reorderRun(items: Array<string | AriaJsonNode>, start: number, end: number, rightToLeft: boolean): void {
  const run = items.slice(start, end) as AriaJsonNode[];
  if (!onOneLine(run)) return;
  const shown = [...run].sort((a, b) => (rightToLeft ? (b.box as Box).x - (a.box as Box).x : (a.box as Box).x - (b.box as Box).x));
  if (overlapSideways(shown) || shown.every((node, position) => node === run[position])) return;
  items.splice(start, run.length, ...shown);
}

function hasArea(box: Box | undefined): box is Box {
  return box !== undefined && box.width > 0 && box.height > 0;
}

/** Each shares at least half the height of the shorter with the first. */
function onOneLine(run: readonly AriaJsonNode[]): boolean {
  const first = run[0]?.box as Box;
  return run.every(node => {
    const box = node.box as Box;
    const shared = Math.min(first.y + first.height, box.y + box.height) - Math.max(first.y, box.y);
    return shared >= Math.min(first.height, box.height) / 2;
  });
}

function overlapSideways(shown: readonly AriaJsonNode[]): boolean {
  return shown.some((node, position) => {
    const next = shown[position + 1];
    if (!next) return false;
    const [left, right] = [node.box as Box, next.box as Box].sort((a, b) => a.x - b.x) as [Box, Box];
    return right.x < left.x + left.width - 1;
  });
}
