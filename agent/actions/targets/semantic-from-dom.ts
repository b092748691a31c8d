import type { Locator } from '@playwright/test';
import type { SemanticLocator } from '../../task/locator-schema';
import { ELEMENT_TIMEOUT_MS } from '../core/limits';

interface DomIdentity {
  role: string;
  name: string;
  text: string;
}

/**
 * How a person would point at an element the snapshot did not describe to us (a ref with no element map):
 * its role and name, read from the DOM. Not from `locator.ariaSnapshot()`: any aria snapshot replaces the
 * page's AI snapshot, and with it every ref the model was given.
 */
export async function semanticFromDom(locator: Locator, fallback: SemanticLocator): Promise<SemanticLocator> {
  const identity = await locator.evaluate(readIdentity, undefined, { timeout: ELEMENT_TIMEOUT_MS }).catch(() => undefined);
  if (!identity) return fallback;
  if (identity.role && identity.name) return { role: identity.role, name: identity.name };
  if (identity.text) return { text: identity.text };
  return identity.role ? { role: identity.role } : fallback;
}

function readIdentity(el: Element): DomIdentity {
  const clean = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().slice(0, 100);
  const tag = el.tagName.toLowerCase();
  const type = (el.getAttribute('type') ?? '').toLowerCase();
  const inputRoles: Record<string, string> = {
    checkbox: 'checkbox',
    radio: 'radio',
    button: 'button',
    submit: 'button',
    reset: 'button',
    range: 'slider',
    number: 'spinbutton',
    search: 'searchbox',
  };
  const tagRoles: Record<string, string> = {
    button: 'button',
    select: 'combobox',
    textarea: 'textbox',
    img: 'img',
    li: 'listitem',
    nav: 'navigation',
    main: 'main',
    dialog: 'dialog',
    option: 'option',
    table: 'table',
  };
  const implicitRole =
    tag === 'a' && el.hasAttribute('href')
      ? 'link'
      : /^h[1-6]$/.test(tag)
        ? 'heading'
        : tag === 'input'
          ? (inputRoles[type] ?? 'textbox')
          : (tagRoles[tag] ?? '');
  const role = el.getAttribute('role') || implicitRole;
  const labelledBy = el.getAttribute('aria-labelledby');
  const labels = 'labels' in el ? [...((el as HTMLInputElement).labels ?? [])].map(l => l.textContent).join(' ') : '';
  const name = clean(
    el.getAttribute('aria-label') ||
      (labelledBy
        ? labelledBy
            .split(/\s+/)
            .map(id => document.getElementById(id)?.textContent ?? '')
            .join(' ')
        : '') ||
      labels ||
      el.getAttribute('alt') ||
      (['button', 'link', 'heading', 'option', 'tab', 'menuitem', 'checkbox', 'radio'].includes(role) ? (el as HTMLElement).innerText : '') ||
      el.getAttribute('title'),
  );
  return { role, name, text: clean((el as HTMLElement).innerText) };
}
