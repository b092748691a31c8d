import type { Locator } from '@playwright/test';
import { describeLocator, type SemanticLocator } from '../../task/locator-schema';

/** How many of several matches a recipe's author is shown: enough to see which is which, few enough to read. */
const SHOWN_MATCHES = 3;
/** Matches read to find what tells the shown ones apart (a list of hundreds is not read in full). */
const COMPARED_MATCHES = 50;
const TEXT_CHARS = 50;

/** One match as the page has it: its position among the matches, tag, text, and an attribute no other match shares. */
export interface MatchSummary {
  nth: number;
  tag: string;
  text: string;
  attribute?: { name: string; value: string };
  /** A CSS selector that matches this element alone on its page, when its tag and that attribute make one. */
  alone?: string;
}

/**
 * "css=h1 matches 2 elements: [nth 0] <h1 class="entry-title"> "Weekly…", [nth 1] … — …": written for the person
 * who wrote the recipe step (no refs, no page state). Page text is quoted, so it cannot pass for our own words.
 */
export async function recipeAmbiguityMessage(target: SemanticLocator, matches: Locator, count: number): Promise<string> {
  const summaries = await summariseMatches(matches).catch(() => [] as MatchSummary[]);
  const shown = summaries.slice(0, SHOWN_MATCHES).map(describeMatch);
  const more = count > shown.length && shown.length ? `, … ${count - shown.length} more` : '';
  const narrower = summaries.find(s => s.alone)?.alone;
  const choose = [
    '"nth": <n> (0-based, page order) or "first": true in its target',
    narrower ? `a narrower locator, e.g. {"css": ${JSON.stringify(narrower)}}` : 'a narrower locator',
  ].join(', or ');
  return `${describeLocator(target)} matches ${count} elements${shown.length ? `: ${shown.join(', ')}${more}` : ''} — a recipe step acts on one: pick it with ${choose}`;
}

export function describeMatch(match: MatchSummary): string {
  const attribute = match.attribute ? ` ${match.attribute.name}=${JSON.stringify(match.attribute.value)}` : '';
  return `[nth ${match.nth}] <${match.tag}${attribute}> ${JSON.stringify(match.text)}`;
}

/** The first matches, each with what sets it apart from the others (read in the page, in one round trip). */
export async function summariseMatches(matches: Locator): Promise<MatchSummary[]> {
  return matches.evaluateAll(summariseInPage, { shown: SHOWN_MATCHES, compared: COMPARED_MATCHES, textChars: TEXT_CHARS });
}

function summariseInPage(elements: Element[], limits: { shown: number; compared: number; textChars: number }): MatchSummary[] {
  const PREFERRED = ['id', 'data-testid', 'name', 'class', 'itemprop', 'aria-label', 'title', 'href', 'role', 'type'];
  const compared = elements.slice(0, limits.compared);
  const valueOf = (el: Element, name: string) => el.getAttribute(name)?.trim() ?? '';
  const textOf = (el: Element) => ((el as HTMLElement).innerText || el.textContent || '').replace(/\s+/g, ' ').trim();
  const clip = (text: string) => (text.length > limits.textChars ? `${text.slice(0, limits.textChars - 1)}…` : text);
  const cssAttribute = (name: string, value: string) => `[${name}="${value.replace(/["\\]/g, '\\$&')}"]`;
  /** A selector for this element's tag and one of its attributes (a class: one of its classes no other match has). */
  const selectorFor = (el: Element, name: string): string | undefined => {
    const tag = el.tagName.toLowerCase();
    if (name !== 'class') return `${tag}${cssAttribute(name, valueOf(el, name))}`;
    const others = new Set(compared.filter(o => o !== el).flatMap(o => Array.from(o.classList)));
    const own = Array.from(el.classList).find(c => !others.has(c) && /^[A-Za-z_][\w-]*$/.test(c));
    return own ? `${tag}.${own}` : undefined;
  };
  const alone = (el: Element, selector: string | undefined): string | undefined => {
    if (!selector) return undefined;
    try {
      const found = el.ownerDocument.querySelectorAll(selector);
      return found.length === 1 && found[0] === el ? selector : undefined;
    } catch {
      return undefined;
    }
  };
  return compared.slice(0, limits.shown).map((el, nth) => {
    const differs = (name: string) => {
      const value = valueOf(el, name);
      if (!value) return false;
      if (name === 'class') return selectorFor(el, name) !== undefined;
      return compared.every(other => other === el || valueOf(other, name) !== value);
    };
    const name = PREFERRED.find(differs) ?? PREFERRED.find(n => valueOf(el, n) !== '');
    const attribute = name ? { name, value: clip(valueOf(el, name)) } : undefined;
    return {
      nth,
      tag: el.tagName.toLowerCase(),
      text: clip(textOf(el)),
      attribute,
      alone: name && differs(name) ? alone(el, selectorFor(el, name)) : undefined,
    };
  });
}
