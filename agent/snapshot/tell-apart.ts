import type { FlatNode } from './raw';

/** How far up a repeated control looks for the words of its item (the post, the row, the card). */
const MAX_LEVELS = 5;
const ITEM_TEXT_CHARS = 60;
const HAS_LETTERS = /\p{L}/u;

/**
 * Unnamed controls with the same hint ("reply" in every post of a feed) are told apart by the words of the item each
 * sits in: the nearest ancestor level at which every one of them has a different first text ("Ada Lovelace",
 * "Grace Hopper") gives each its `near`. Controls whose nearby texts already differ keep theirs.
 */
export function tellApart(flat: readonly FlatNode[]): void {
  const groups = new Map<string, FlatNode[]>();
  for (const item of flat) {
    const { node } = item;
    if (!node.ref || node.name || !node.hint || (!node.hint.icon && !node.hint.label)) continue;
    const key = `${node.role}\u0001${node.hint.icon ?? ''}\u0001${node.hint.label ?? ''}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  for (const group of groups.values()) {
    if (group.length < 2) continue;
    // Nearby words that differ already tell them apart; bare times or counts ("9:00", "12") name no item.
    const texts = allDifferent(
      group.map(item => item.node.hint?.near),
      HAS_LETTERS,
    )
      ? group.map(item => item.node.hint?.near)
      : itemTexts(flat, group);
    if (!texts) continue;
    group.forEach((item, position) => {
      if (item.node.hint) item.node.hint = { ...item.node.hint, near: texts[position], nearNamesItem: true };
    });
  }
}

/** The words of each one's item, from the nearest level up at which they all differ. */
function itemTexts(flat: readonly FlatNode[], group: readonly FlatNode[]): Array<string | undefined> | undefined {
  for (let level = 1; level <= MAX_LEVELS; level++) {
    const texts = group.map(item => itemText(flat, item, level));
    if (allDifferent(texts)) return texts;
  }
  return undefined;
}

function allDifferent(values: ReadonlyArray<string | undefined>, shape = /./): boolean {
  return values.every(value => value !== undefined && shape.test(value)) && new Set(values).size === values.length;
}

/** The first words (letters, not a bare count) inside the control's ancestor `level` steps up, outside the control itself. */
function itemText(flat: readonly FlatNode[], item: FlatNode, level: number): string | undefined {
  let ancestor: FlatNode | undefined = item;
  for (let step = 0; step < level && ancestor; step++) ancestor = flat[ancestor.parent];
  if (!ancestor) return undefined;
  for (let index = ancestor.index + 1; index < ancestor.end; index++) {
    if (index === item.index) {
      index = item.end - 1;
      continue;
    }
    const node = flat[index]?.node;
    const text = (node?.name ?? node?.text ?? '').replace(/\s+/g, ' ').trim();
    if (HAS_LETTERS.test(text)) return text.slice(0, ITEM_TEXT_CHARS);
  }
  return undefined;
}
