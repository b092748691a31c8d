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
  /** Controls at the start or end of the element's text (a subject's tag link), elements of their own: their texts, left out. */
  leftOut?: string[];
  /** A field's live `type` or `value` was read: the attribute as the page's source writes it, when that differs. */
  written?: string;
}

export const PREVIEW_CHARS = 120;

/**
 * One evaluate per element. Text is joined the way a person reads the page: blocks and line breaks apart, and two
 * inline boxes the page draws apart (a margin between two links) never glued. A link or button at the start or end
 * of the element's text that only repeats words the element already says is an element of its own (a subject and its
 * tag link: "Release 0.6.0" and "0.6.0"), left out of it; any other is part of the text. A field's `type` and `value` are what the
 * browser holds (an unknown type="input" is a text field; a value typed since is the value), not the source's words.
 */
export async function readElement(
  locator: Locator,
  options: { attribute?: string; exact: boolean; alternatives?: readonly string[] },
): Promise<ElementRead> {
  const read = await locator.evaluate(
    (el, { attribute, exact, alternatives, previewChars }) => {
      const BLOCK = /^(block|flex|grid|list-item|table|table-row|table-caption|flow-root|inline-block|inline-flex|inline-grid)$/;
      const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head']);
      const CONTROL = 'a[href], button, [role=link], [role=button]';
      const controls: Array<{ start: number; end: number }> = [];
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
          const control = element !== root && element.matches(CONTROL);
          const start = out.length;
          for (const child of Array.from(element.childNodes)) visit(child);
          if (control && out.length > start) controls.push({ start, end: out.length });
          if (block) breakLine();
        };
        visit(root);
        return out;
      }
      const tidy = (text: string) => text.replace(/ *\n */g, '\n').trim();
      /**
       * The text without a control at its start or end that only repeats words the rest already says (a subject and
       * its tag link: "Release 0.6.0" and "0.6.0"), and the texts left out; a row that starts with its link keeps it.
       */
      function withoutEdgeControls(text: string): { text: string; leftOut: string[] } {
        let from = 0;
        let to = text.length;
        const leftOut: string[] = [];
        const sorted = [...controls].sort((a, b) => a.start - b.start);
        const repeats = (c: { start: number; end: number }, restFrom: number, restTo: number) => {
          const words = text.slice(c.start, c.end).trim();
          const rest = `${text.slice(restFrom, c.start)} ${text.slice(c.end, restTo)}`;
          return words !== '' && rest.includes(words);
        };
        for (const c of sorted) {
          if (text.slice(from, c.start).trim() || !repeats(c, c.end, to)) break;
          leftOut.push(text.slice(c.start, c.end).trim());
          from = c.end;
        }
        for (const c of sorted.reverse()) {
          if (c.start < from || text.slice(c.end, to).trim() || !repeats(c, from, c.start)) break;
          leftOut.push(text.slice(c.start, c.end).trim());
          to = c.start;
        }
        const kept = tidy(text.slice(from, to));
        return kept && leftOut.length ? { text: kept, leftOut } : { text: tidy(text), leftOut: [] };
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
      const laidOut = el instanceof HTMLElement && el.getClientRects().length > 0 ? layoutText(el) : '';
      const edges = laidOut && !el.matches(CONTROL) ? withoutEdgeControls(laidOut) : { text: tidy(laidOut), leftOut: [] };
      const shown = edges.text;
      const field = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement ? el : undefined;
      const text = field ? field.value : shown || sourceText(el);
      // An avatar link shows a picture, not words: what it is called (aria-label, the picture's alt, title) is its text.
      const control = !attribute && !text.trim() && el.matches('a, button, [role=link], [role=button]');
      const label = control ? el.getAttribute('aria-label')?.trim() : undefined;
      const alt = control && !label ? el.querySelector('img[alt]')?.getAttribute('alt')?.trim() : undefined;
      const title = control && !label && !alt ? el.getAttribute('title')?.trim() : undefined;
      const named = label ? 'aria-label' : alt ? "the picture's alt" : title ? 'title' : undefined;
      const live = field && attribute && (attribute === 'type' || attribute === 'value') ? String(field[attribute]) : undefined;
      const written = attribute ? el.getAttribute(attribute) : null;
      const raw = attribute ? (live ?? written) : named ? label || alt || title || '' : exact ? (el.textContent ?? '') : text;
      const leftOut = !attribute && !named && !exact && !field ? edges.leftOut : [];
      return {
        raw,
        ...(named ? { named } : {}),
        ...(leftOut.length ? { leftOut } : {}),
        ...(live !== undefined && written !== live ? { written: written ?? '(none)' } : {}),
        preview: (field ? field.value : tidy(laidOut) || sourceText(el)).replace(/\s+/g, ' ').trim().slice(0, previewChars),
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
  return {
    ...read,
    matched: read.matched ?? undefined,
    named: read.named ?? undefined,
    leftOut: read.leftOut ?? undefined,
    written: read.written ?? undefined,
  };
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
