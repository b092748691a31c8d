import type { Locator } from '@playwright/test';

/** What extract reads from an element; null = the attribute is not there at all. */
export async function readRaw(locator: Locator, attribute: string | undefined, exact: boolean): Promise<string | null> {
  if (attribute) return locator.getAttribute(attribute, { timeout: 5_000 });
  return locator.evaluate((el, keepExact) => {
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return el.value;
    // Exact: the text as the page holds it, spacing and all; otherwise as rendered.
    if (keepExact) return el.textContent ?? '';
    // innerText is empty for content that is not rendered (a closed <details>); the text is still on the page.
    return (el as HTMLElement).innerText || el.textContent || '';
  }, exact);
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
