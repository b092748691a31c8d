import type { Locator } from '@playwright/test';

/** What extract reads from an element, and what the value's record needs to say about it. */
export interface ElementRead {
  /** The text as the page shows it (or exactly, or the attribute); null = the attribute is not there at all. */
  raw: string | null;
  /** The element's own text, shortened: what an auditor sees the value came from. */
  preview: string;
  /** The nearest lang attribute, then the browser's language: how the page writes dates and numbers. */
  languages: string[];
  /** A machine timestamp the element carries (its own datetime, or a <time> inside or around it). */
  timestamp?: string;
  /** For a CSS selector list: the alternative this element matched. */
  matched?: string;
  /** A link or button with no text of its own (an avatar) was read by its accessible name: where that name was. */
  named?: string;
}

export const PREVIEW_CHARS = 120;

/**
 * One evaluate per element. Text is joined the way a person reads the page: blocks and line breaks apart, and two
 * inline boxes the page draws apart (a margin between two links) never glued ("Release 0.6.0" + "0.6.0").
 */
export async function readElement(
  locator: Locator,
  options: { attribute?: string; exact: boolean; alternatives?: readonly string[] },
): Promise<ElementRead> {
  const read = await locator.evaluate(
    (el, { attribute, exact, alternatives, previewChars }) => {
      const BLOCK = /^(block|flex|grid|list-item|table|table-row|table-caption|flow-root|inline-block|inline-flex|inline-grid)$/;
      const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head']);
      function layoutText(root: Element): string {
        let out = '';
        let last: { element: Element; rect: DOMRect } | undefined;
        const breakLine = () => {
          if (out && !out.endsWith('\n')) out += '\n';
        };
        const visit = (node: Node) => {
          if (node.nodeType === Node.TEXT_NODE) {
            const text = (node.textContent ?? '').replace(/[ \t\n\r\f]+/g, ' ');
            if (!text.trim()) {
              if (text && out && !/\s$/.test(out)) out += ' ';
              return;
            }
            const range = document.createRange();
            range.selectNodeContents(node);
            const rects = range.getClientRects();
            const first = rects[0];
            const parent = node.parentElement as Element;
            if (last && first && out && !/\s$/.test(out) && !/^\s/.test(text) && last.element !== parent) {
              const apart = first.left - last.rect.right > 1.5 || Math.abs(first.top - last.rect.top) > Math.max(4, last.rect.height / 2);
              if (apart) out += ' ';
            }
            out += /\s$/.test(out) || !out ? text.replace(/^ /, '') : text;
            const end = rects[rects.length - 1];
            if (end) last = { element: parent, rect: end };
            return;
          }
          if (node.nodeType !== Node.ELEMENT_NODE) return;
          const element = node as Element;
          if (SKIP.has(element.localName)) return;
          if (element.localName === 'br') {
            out += '\n';
            return;
          }
          const style = getComputedStyle(element);
          if (style.display === 'none' || style.visibility === 'hidden') return;
          const block = BLOCK.test(style.display) && element !== root;
          if (block) breakLine();
          for (const child of Array.from(element.childNodes)) visit(child);
          if (block) breakLine();
        };
        visit(root);
        return out.replace(/ *\n */g, '\n').trim();
      }
      /** Text the page does not render (a closed <details>, content hidden by CSS) is still on the page. */
      function sourceText(root: Element): string {
        return (root.textContent ?? '').replace(/\s+/g, ' ').trim();
      }
      const own =
        el.getAttribute('datetime') ??
        el.querySelector('time[datetime]')?.getAttribute('datetime') ??
        el.closest('time[datetime]')?.getAttribute('datetime');
      const lang = el.closest('[lang]')?.getAttribute('lang') ?? '';
      const shown = el instanceof HTMLElement && el.getClientRects().length > 0 ? layoutText(el) : '';
      const text =
        el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement ? el.value : shown || sourceText(el);
      // An avatar link shows a picture, not words: what it is called (aria-label, the picture's alt, title) is its text.
      const control = !attribute && !text.trim() && el.matches('a, button, [role=link], [role=button]');
      const label = control ? el.getAttribute('aria-label')?.trim() : undefined;
      const alt = control && !label ? el.querySelector('img[alt]')?.getAttribute('alt')?.trim() : undefined;
      const title = control && !label && !alt ? el.getAttribute('title')?.trim() : undefined;
      const named = label ? 'aria-label' : alt ? "the picture's alt" : title ? 'title' : undefined;
      const raw = attribute ? el.getAttribute(attribute) : named ? label || alt || title || '' : exact ? (el.textContent ?? '') : text;
      return {
        raw,
        ...(named ? { named } : {}),
        preview: text.replace(/\s+/g, ' ').trim().slice(0, previewChars),
        languages: [lang, navigator.language].filter(Boolean),
        ...(own ? { timestamp: own } : {}),
        ...(alternatives?.length
          ? {
              matched: alternatives.find(selector => {
                try {
                  return el.matches(selector);
                } catch {
                  return false;
                }
              }),
            }
          : {}),
      };
    },
    { attribute: options.attribute, exact: options.exact, alternatives: options.alternatives, previewChars: PREVIEW_CHARS },
    { timeout: 5_000 },
  );
  return { ...read, matched: read.matched ?? undefined, named: read.named ?? undefined };
}

/** "a, b:is(c, d)" → ["a", "b:is(c, d)"]: the commas that separate a selector list, not those inside brackets or quotes. */
export function selectorAlternatives(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let current = '';
  for (const char of selector) {
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') depth++;
    else if (char === ')' || char === ']') depth--;
    else if (char === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  parts.push(current.trim());
  return parts.filter(Boolean);
}

/** Attributes that hold a readable value, most likely first. */
const USEFUL_ATTRIBUTES = ['aria-label', 'title', 'alt', 'value', 'datetime', 'content', 'label', 'placeholder', 'aria-description', 'href', 'src'];
const rank = (name: string) => (name.startsWith('data-') ? USEFUL_ATTRIBUTES.length : USEFUL_ATTRIBUTES.indexOf(name));
const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

/**
 * An empty read is not a value: what else the element offers (its visible text, its other attributes), so
 * the model can read that instead.
 */
export async function emptyReadMessage(
  locator: Locator,
  field: string,
  label: string,
  attribute: string | undefined,
  absent: boolean,
): Promise<string> {
  const offers = await locator
    .evaluate(
      (el, skip) => ({
        text: ((el as HTMLElement).innerText || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 80),
        attributes: [...el.attributes]
          .filter(a => a.name !== skip && a.value.trim() !== '')
          .map(a => [a.name, a.value.slice(0, 80)] as [string, string]),
      }),
      attribute ?? '',
      { timeout: 2_000 },
    )
    .catch(() => ({ text: '', attributes: [] as Array<[string, string]> }));
  const what = attribute
    ? absent
      ? `${label} has no "${attribute}" attribute`
      : `the "${attribute}" attribute of ${label} is empty`
    : `${label} has no text`;
  const others = offers.attributes
    .filter(([name]) => rank(name) >= 0)
    .sort(([a], [b]) => rank(a) - rank(b))
    .slice(0, 4);
  const suggestions = [
    ...(attribute && offers.text ? [`its visible text is ${JSON.stringify(offers.text)} (extract without attribute)`] : []),
    ...(others.length
      ? [`it has ${others.map(([name, value]) => `${name}=${JSON.stringify(clip(value))}`).join(', ')} (extract with that attribute)`]
      : []),
  ];
  const next = suggestions.length
    ? `; ${suggestions.join('; ')}`
    : ' — if the value fills in later, wait for it first; if the page truly has none, use missing: "null"';
  return `"${field}": ${what}${next}`;
}
