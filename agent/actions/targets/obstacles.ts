import type { Locator } from '@playwright/test';
import { PAGE_READ_MS } from '../core/limits';

/**
 * What stands between the model and an element, told in the page's own terms: which dialog covers it, which
 * menu, tab or section hides it, which link it meant when it named plain text. Each reader runs in the page
 * and is self-contained (Playwright serialises it); undefined = nothing to say.
 */

export interface Cover {
  /** Which element covers it and what it is part of, with its buttons. */
  text: string;
  /**
   * A dialog, or something with buttons or links of its own, stays until someone closes it; a bare layer (a
   * loading veil) usually goes by itself.
   */
  lasting: boolean;
  /** The cover is a dialog, or part of one, or a modal dialog is open: a person could not reach the element. */
  dialog: boolean;
}

/** How an element stands for a pointer right now, read once in the page; 'unknown' when there is no answer. */
export type Standing = { kind: 'usable' | 'hidden' | 'disabled' | 'unknown' } | { kind: 'covered'; cover: Cover };

export function readStanding(locator: Locator, timeout: number): Promise<Standing> {
  return locator.evaluate(standingInPage, POINTER_TARGET_KEY, { timeout }).catch((): Standing => ({ kind: 'unknown' }));
}

/** Where standingInPage leaves the element it read, on the element's window. */
export const POINTER_TARGET_KEY = 'bwa.pointerTarget';

/** The element on top of this one where a click would land, when it is not this one or inside it. */
export async function describeCover(locator: Locator): Promise<Cover | undefined> {
  const standing = await readStanding(locator, PAGE_READ_MS);
  return standing.kind === 'covered' ? standing.cover : undefined;
}

/** Where a hidden element sits: a closed menu (and its opener), another tab's panel, a closed section. */
export function describeHiddenPlace(locator: Locator): Promise<string | undefined> {
  return locator.evaluate(hiddenPlaceInPage, undefined, { timeout: PAGE_READ_MS }).catch(() => undefined);
}

export interface ControlForText {
  /** The element the text resolved to, as role and text. */
  here: string;
  role: string;
  name: string;
  visible: boolean;
  /** Where it is, when it is not visible. */
  hiddenPlace?: string;
}

/**
 * When the element is plain text (no control, no pointer cursor) and a control with that text exists
 * elsewhere: that control. The model meant the control.
 */
export async function findControlForText(locator: Locator, text: string, controlSelector: string): Promise<ControlForText | undefined> {
  const handle = await locator.evaluateHandle(controlForTextInPage, { text, controlSelector }, { timeout: PAGE_READ_MS }).catch(() => undefined);
  const control = handle?.asElement();
  if (!control) {
    await handle?.dispose();
    return undefined;
  }
  try {
    const facts = await control.evaluate(identityInPage);
    const here = await locator.evaluate(identityInPage);
    const hiddenPlace = facts.visible ? undefined : await control.evaluate(hiddenPlaceInPage);
    return { here: `${here.role} ${JSON.stringify(here.name)}`, role: facts.role, name: facts.name, visible: facts.visible, hiddenPlace };
  } finally {
    await control.dispose();
  }
}

function standingInPage(el: Element, targetKey: string): Standing {
  // The element a pointer action is about to use, left for the change watch (settle/page-changes.ts): it spares
  // that watch a second lookup of the element (a locator lookup waits for an animation frame).
  (window as unknown as Record<symbol, Element>)[Symbol.for(targetKey)] = el;
  const nameOf = (node: Element) =>
    (
      node.getAttribute('aria-label') ||
      (node.getAttribute('aria-labelledby') ?? '')
        .split(/\s+/)
        .map(id => (id ? (document.getElementById(id)?.textContent ?? '') : ''))
        .join(' ') ||
      node.querySelector('h1, h2, h3, h4, legend')?.textContent ||
      ''
    )
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 80);
  const tagOf = (node: Element) => {
    const id = node.id ? ` id="${node.id}"` : '';
    const cls = node.getAttribute('class') ? ` class="${node.getAttribute('class')}"` : '';
    return `<${node.tagName.toLowerCase()}${cls}${id}>`;
  };
  // Each box of the element (a link that wraps has one per line): the centre of a box is where a click lands, the
  // centre of the whole bounding box may be a gap between lines.
  const boxes = [...el.getClientRects()].filter(box => box.width * box.height > 0.99);
  if (!boxes.length || getComputedStyle(el).visibility === 'hidden') return { kind: 'hidden' };
  if (el.matches(':disabled') || el.closest('[aria-disabled=true]')) return { kind: 'disabled' };
  const root = el.getRootNode() as Document | ShadowRoot;
  let hit: Element | undefined;
  for (const box of boxes) {
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    const top = root.elementFromPoint(x, y);
    if (!top) continue;
    if (top === el || el.contains(top)) return { kind: 'usable' };
    // What holds the element shows through its own gaps (padding, a line break); it does not cover it.
    if (!top.contains(el)) hit ??= top;
  }
  if (!hit) return { kind: 'unknown' };
  const dialogSelector = 'dialog, [role=dialog], [role=alertdialog], [aria-modal=true]';
  const dialog = hit.closest(dialogSelector) ?? hit.querySelector(dialogSelector);
  const holder = dialog ?? hit.closest('[role], header, nav, aside, footer') ?? hit;
  const role = holder.getAttribute('role') || (holder.tagName === 'DIALOG' ? 'dialog' : holder.tagName.toLowerCase());
  const name = nameOf(holder);
  const buttons = [...holder.querySelectorAll('button, [role=button], a[href]')]
    .map(b => (b.getAttribute('aria-label') || (b as HTMLElement).innerText || '').replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .slice(0, 4);
  const what = `${role}${name ? ` ${JSON.stringify(name)}` : ''}`;
  const choices = buttons.length ? ` (its buttons: ${buttons.map(b => JSON.stringify(b)).join(', ')})` : '';
  // A backdrop holding the dialog is named itself; a part of the dialog is named as the dialog.
  const shownTag = dialog && !hit.contains(dialog) ? tagOf(dialog) : tagOf(hit);
  const shown = (node: Element) => node.getBoundingClientRect().width > 0 && getComputedStyle(node).visibility !== 'hidden';
  // A modal dialog anywhere is what the backdrop on top belongs to.
  const openDialog = [...document.querySelectorAll('dialog:modal, [aria-modal=true]')].some(shown);
  const controls = holder.querySelector('button, [role=button], a[href], input, select, textarea') !== null;
  const text = `another element (${shownTag}, part of ${what}) is covering it — close the dialog or overlay first${choices}`;
  return { kind: 'covered', cover: { text, lasting: Boolean(dialog) || openDialog || controls, dialog: Boolean(dialog) || openDialog } };
}

function hiddenPlaceInPage(el: Element): string | undefined {
  const nameOf = (node: Element) =>
    (node.getAttribute('aria-label') || (node as HTMLElement).innerText || node.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60);
  const roleOf = (node: Element) =>
    node.getAttribute('role') ||
    ({ A: 'link', BUTTON: 'button', SUMMARY: 'summary' } as Record<string, string>)[node.tagName] ||
    node.tagName.toLowerCase();
  const openerOf = (node: Element) => {
    if (!node.id) return null;
    const id = CSS.escape(node.id);
    return (
      document.querySelector(`[aria-controls~="${id}"], [aria-owns~="${id}"]`) ??
      document.querySelector(`[href="#${id}"], [data-target="#${id}"], [data-bs-target="#${id}"]`)
    );
  };
  const parentOf = (node: Element) => node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null);
  for (let node: Element | null = el; node; node = parentOf(node)) {
    if (node instanceof HTMLDetailsElement && !node.open) {
      const summary = node.querySelector(':scope > summary');
      if (!summary?.contains(el))
        return `it is inside the closed section ${JSON.stringify(summary ? nameOf(summary) : 'details')} — click that summary first`;
    }
    const style = getComputedStyle(node);
    if (style.display !== 'none' && style.visibility !== 'hidden' && !(node as HTMLElement).hidden) continue;
    const labelledBy = node.getAttribute('aria-labelledby');
    const opener = openerOf(node) ?? (labelledBy ? document.getElementById(labelledBy.split(/\s+/)[0] ?? '') : null);
    if (opener && (roleOf(opener) === 'tab' || node.getAttribute('role') === 'tabpanel'))
      return `it is on another tab: click tab ${JSON.stringify(nameOf(opener))} first`;
    if (opener)
      return `it is in a closed ${node.getAttribute('role') ?? 'menu or section'} opened by ${roleOf(opener)} ${JSON.stringify(nameOf(opener))} — click that first`;
    const tag = `<${node.tagName.toLowerCase()}${node.id ? ` id="${node.id}"` : ''}${node.getAttribute('class') ? ` class="${node.getAttribute('class')}"` : ''}>`;
    return `it is inside a hidden part of the page (${tag}) — open the menu, tab or section that holds it`;
  }
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return 'it has no size on the page (collapsed or empty) — open the part of the page that holds it';
  return undefined;
}

function controlForTextInPage(el: Element, args: { text: string; controlSelector: string }): Element | null {
  const target = el as HTMLElement;
  if (target.closest(args.controlSelector) || getComputedStyle(target).cursor === 'pointer' || target.hasAttribute('onclick') || target.tabIndex >= 0)
    return null;
  const wanted = args.text.replace(/\s+/g, ' ').trim().toLowerCase();
  const nameOf = (node: Element) => (node.getAttribute('aria-label') || node.textContent || '').replace(/\s+/g, ' ').trim().toLowerCase();
  const controls = [...document.querySelectorAll(args.controlSelector)].filter(c => c !== el && !c.contains(el) && nameOf(c).includes(wanted));
  return controls.find(c => c.getBoundingClientRect().width > 0) ?? controls[0] ?? null;
}

function identityInPage(el: Element): { role: string; name: string; visible: boolean } {
  const tagRoles: Record<string, string> = {
    A: 'link',
    BUTTON: 'button',
    SUMMARY: 'summary',
    SELECT: 'combobox',
    H1: 'heading',
    H2: 'heading',
    H3: 'heading',
    H4: 'heading',
    P: 'paragraph',
    LI: 'listitem',
  };
  const box = el.getBoundingClientRect();
  return {
    role: el.getAttribute('role') || tagRoles[el.tagName] || el.tagName.toLowerCase(),
    name: (el.getAttribute('aria-label') || (el as HTMLElement).innerText || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60),
    visible: box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== 'hidden',
  };
}
