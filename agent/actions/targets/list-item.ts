import type { ElementHandle, Page } from '@playwright/test';

/**
 * Where an item sits in the list a person sees: the item is the list member around the element (a name inside a
 * row with a grip is not the item; the row is), its place is its position among its like siblings, and the order
 * is their texts as the page shows them now.
 */
export interface ListPlace {
  /** The item's text, to find it again when the page redraws the list. */
  text: string;
  /** Tag and class of the item, for the same search. */
  tag: string;
  className: string;
  container: string;
  index: number;
  count: number;
  /** The members' texts in the order the page shows them. */
  order: string[];
  /** Where the item is on the page (CSS pixels from the document's top left, so a scroll moves nothing): a card on a board moves by position, not in an order. */
  box?: { x: number; y: number; width: number; height: number };
}

/** The item around the element, as a handle (dispose it), and its place now. */
export async function itemAround(element: ElementHandle): Promise<{ item: ElementHandle; place: ListPlace }> {
  const item = (await element.evaluateHandle(itemOfInPage)).asElement() ?? element;
  return { item, place: await item.evaluate(placeInPage) };
}

/** Where the item is after a drop: the same element when it stayed on the page, else the one the redrawn list shows with its text. */
export async function placeNow(page: Page, item: ElementHandle, before: ListPlace): Promise<ListPlace | undefined> {
  if (await item.evaluate(el => el.isConnected).catch(() => false)) return item.evaluate(placeInPage);
  const again = await page.evaluateHandle(findItemInPage, before).catch(() => undefined);
  const found = again?.asElement();
  if (!found) {
    await again?.dispose();
    return undefined;
  }
  try {
    return await found.evaluate(placeInPage);
  } finally {
    await found.dispose();
  }
}

export function moved(before: ListPlace, after: ListPlace): boolean {
  return after.container !== before.container || after.order.join('\u0001') !== before.order.join('\u0001');
}

/** Runs in the page: the nearest list member around the element, else the nearest ancestor with a sibling like it. */
function itemOfInPage(el: Element): Element {
  const member = el.closest('[draggable="true"], li, tr, [role=listitem], [role=option], [role=row], [role=treeitem]');
  if (member) return member;
  const like = (a: Element, b: Element) => a.tagName === b.tagName && (a.getAttribute('class') ?? '') === (b.getAttribute('class') ?? '');
  for (let node: Element | null = el, depth = 0; node?.parentElement && depth < 6; node = node.parentElement, depth++) {
    const self = node;
    if ([...node.parentElement.children].some(sibling => sibling !== self && like(sibling, self))) return node;
  }
  return el;
}

/** Runs in the page; self-contained because Playwright serialises it. */
function placeInPage(item: Element): ListPlace {
  const textOf = (node: Element) => ((node as HTMLElement).innerText || node.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 100);
  const like = (a: Element, b: Element) => a.tagName === b.tagName && (a.getAttribute('class') ?? '') === (b.getAttribute('class') ?? '');
  const parent = item.parentElement;
  const memberSelector = '[draggable="true"], li, tr, [role=listitem], [role=option], [role=row], [role=treeitem]';
  const members = parent ? [...parent.children].filter(child => child === item || like(child, item) || child.matches(memberSelector)) : [item];
  const nameOf = (node: Element) =>
    node.getAttribute('aria-label') ||
    (node.getAttribute('aria-labelledby') ?? '')
      .split(/\s+/)
      .map(id => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
      .join(' ')
      .trim() ||
    node.querySelector(':scope > h1, :scope > h2, :scope > h3, :scope > h4, :scope > header')?.textContent?.trim() ||
    '';
  let container = '';
  for (let node = parent, depth = 0; node && depth < 4 && !container; node = node.parentElement, depth++) {
    const name = nameOf(node).replace(/\s+/g, ' ').slice(0, 60);
    if (name) container = JSON.stringify(name);
  }
  return {
    text: textOf(item),
    tag: item.tagName.toLowerCase(),
    className: item.getAttribute('class') ?? '',
    container: container || (parent ? `<${parent.tagName.toLowerCase()}${parent.id ? ` id="${parent.id}"` : ''}>` : 'the page'),
    index: members.indexOf(item) + 1,
    count: members.length,
    order: members.map(textOf),
    box: (({ x, y, width, height }) => ({ x: x + window.scrollX, y: y + window.scrollY, width, height }))(item.getBoundingClientRect()),
  };
}

/** Runs in the page: the one element of the item's tag and class that shows the item's text. */
function findItemInPage(before: ListPlace): Element | null {
  const textOf = (node: Element) => ((node as HTMLElement).innerText || node.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 100);
  const matches = [...document.getElementsByTagName(before.tag)].filter(
    node => (node.getAttribute('class') ?? '') === before.className && textOf(node) === before.text,
  );
  return matches.length === 1 ? (matches[0] as Element) : null;
}
