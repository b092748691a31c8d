import type { Locator, Page } from '@playwright/test';
import { PAGE_READ_MS } from '../core/limits';

/**
 * A native select a page hides (clipped to a pixel, display:none, transparent) behind a drop-down of its own: the
 * select holds the value, the drop-down is what a person sees and uses. What it shows is where a choice is checked.
 */
export interface StandIn {
  /** The drop-down's face, to click and to read. */
  locator: Locator;
  /** What it shows now. */
  shown: string;
}

/** The drop-down drawn for a hidden select, or undefined when the select is what shows (or nothing stands in for it). */
export async function standInFor(page: Page, select: Locator): Promise<StandIn | undefined> {
  const found = await select.evaluate(standInInPage, undefined, { timeout: PAGE_READ_MS }).catch(() => undefined);
  if (!found) return undefined;
  const locator = page.locator(found.path);
  if ((await locator.count()) !== 1) return undefined;
  return { locator, shown: found.shown };
}

export async function shownBy(standIn: StandIn): Promise<string> {
  return standIn.locator.evaluate(faceTextInPage, undefined, { timeout: PAGE_READ_MS }).catch(() => '');
}

export function showsChoice(shown: string, label: string): boolean {
  const normal = (text: string) => text.replace(/\s+/g, ' ').trim().toLowerCase();
  return normal(label) !== '' && normal(shown).includes(normal(label));
}

/** Runs in the page: the face's text, an open list inside it left out. */
function faceTextInPage(face: Element): string {
  const list = face.querySelector('[role=listbox], ul, ol') as HTMLElement | null;
  const text = ((face as HTMLElement).innerText || '').replace(list?.innerText || '\u0000', '');
  return text.replace(/\s+/g, ' ').trim().slice(0, 200);
}

/** Runs in the page; self-contained because Playwright serialises it. */
function standInInPage(el: Element): { path: string; shown: string } | undefined {
  const select = (el instanceof HTMLLabelElement && el.control ? el.control : el) as HTMLElement;
  const visible = (node: Element) => {
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    return box.width >= 4 && box.height >= 4 && style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0.1;
  };
  if (visible(select) && getComputedStyle(select).clipPath === 'none' && !/rect\(0/.test(getComputedStyle(select).clip)) return undefined;
  const takesClicks = (node: Element) => {
    const style = getComputedStyle(node);
    return (
      /^(combobox|button|listbox)$/.test(node.getAttribute('role') ?? '') ||
      node.matches('a, button, [tabindex]') ||
      style.cursor === 'pointer' ||
      node.hasAttribute('onclick')
    );
  };
  // The face: the first visible part of the widget that takes clicks and shows text (the widget itself otherwise).
  const faceOf = (widget: Element): Element =>
    [widget, ...widget.querySelectorAll('*')].find(node => visible(node) && takesClicks(node) && (node as HTMLElement).innerText?.trim()) ?? widget;
  let widget: Element | undefined;
  for (let node: Element | null = select, level = 0; node && !widget && level < 3; node = node.parentElement, level++) {
    for (const sibling of [node.nextElementSibling, node.previousElementSibling]) {
      if (
        sibling &&
        sibling.localName !== 'label' &&
        sibling.localName !== 'select' &&
        visible(sibling) &&
        (sibling as HTMLElement).innerText?.trim()
      ) {
        widget = sibling;
        break;
      }
    }
  }
  if (!widget) return undefined;
  const face = faceOf(widget);
  const cssPath = (node: Element): string => {
    const parts: string[] = [];
    for (let current: Element | null = node; current; current = current.parentElement) {
      if (current.id && /^[A-Za-z][\w-]*$/.test(current.id) && document.getElementById(current.id) === current) {
        parts.unshift(`#${current.id}`);
        break;
      }
      const parent: Element | null = current.parentElement;
      if (!parent) {
        parts.unshift(current.localName);
        break;
      }
      let index = 1;
      for (let sibling = current.previousElementSibling; sibling; sibling = sibling.previousElementSibling)
        if (sibling.localName === current.localName) index++;
      parts.unshift(`${current.localName}:nth-of-type(${index})`);
    }
    return parts.join(' > ');
  };
  return { path: cssPath(face), shown: ((face as HTMLElement).innerText || '').replace(/\s+/g, ' ').trim().slice(0, 200) };
}
