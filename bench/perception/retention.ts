import type { AriaJsonNode } from '../../agent/snapshot/raw';

/**
 * What a real page's page state should keep, judged from outside the pruning code: the ground truth's
 * first sentence, the headline, and every element Playwright's raw AI snapshot lets a person act on.
 * Matching ignores case, spacing and punctuation, so a quote printed as \" or a line break between an
 * inline link and its sentence does not count as a loss.
 */

export function normalizeForMatch(value: string): string {
  return value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** A period and a capital, with a space between, or glued after a lower-case word ("Wednesday.The"). */
const SENTENCE_END = /[.!?…]["'”’)\]]*\s+(?=["'“‘([]?[\p{Lu}\p{N}])|(?<=\p{Ll}{2}[.!?])(?=\p{Lu}\p{Ll})/u;
const MIN_SENTENCE_CHARS = 25;

/** The first sentence of the article's first paragraph (joined with the next while it is too short to tell anything apart). */
export function firstSentence(articleBody: string): string {
  const paragraph =
    articleBody
      .split(/\n+/)
      .map(line => line.trim())
      .find(line => normalizeForMatch(line).length > 0) ?? '';
  let sentence = '';
  let rest = paragraph;
  while (rest && normalizeForMatch(sentence).length < MIN_SENTENCE_CHARS) {
    const end = SENTENCE_END.exec(rest);
    const cut = end ? end.index + end[0].length : rest.length;
    sentence += rest.slice(0, cut);
    rest = rest.slice(cut);
  }
  return sentence.trim();
}

/**
 * Every JSON-quoted string of a page state, decoded and joined in line order: what the page said, without
 * our own words. Addresses (`→ "…"`) and attributes (`value="…"`) are skipped: they are not running text.
 */
export function printedText(pageState: string): string {
  const parts: string[] = [];
  for (const match of pageState.matchAll(/"(?:[^"\\\n]|\\.)*"/g)) {
    const before = pageState.slice(Math.max(0, (match.index ?? 0) - 2), match.index);
    if (before === '→ ' || before.endsWith('=')) continue;
    try {
      parts.push(JSON.parse(match[0]) as string);
    } catch {
      parts.push(match[0]);
    }
  }
  return parts.join(' ');
}

export interface RawFacts {
  /** Raw nodes (with their path of roles from the root) in document order. */
  nodes: Array<{ node: AriaJsonNode; path: AriaJsonNode[] }>;
  /** All names and texts of the raw snapshot, normalised and joined. */
  normalizedText: string;
}

export function rawFacts(json: unknown): RawFacts {
  const nodes: RawFacts['nodes'] = [];
  const texts: string[] = [];
  const visit = (item: string | AriaJsonNode, path: AriaJsonNode[]): void => {
    const node: AriaJsonNode = typeof item === 'string' ? { role: 'text', text: item } : item;
    nodes.push({ node, path });
    if (node.name) texts.push(node.name);
    if (node.text) texts.push(node.text);
    for (const child of node.children ?? []) visit(child, [...path, node]);
  };
  for (const root of json as Array<string | AriaJsonNode>) visit(root, []);
  return { nodes, normalizedText: normalizeForMatch(texts.join(' ')) };
}

/** The raw snapshot's heading that is the page's title (its <title> or og:title minus the site name), else its first h1. */
export function findHeadline(facts: RawFacts, titles: readonly string[]): string | undefined {
  const normalizedTitles = titles.map(normalizeForMatch).filter(title => title.length >= 12);
  let best: string | undefined;
  let firstH1: string | undefined;
  for (const { node } of facts.nodes) {
    if (node.role !== 'heading') continue;
    const label = node.name ?? node.text ?? '';
    const normalized = normalizeForMatch(label);
    if (normalized.length < 12) continue;
    if (node.level === 1 && firstH1 === undefined) firstH1 = label;
    const matchesTitle = normalizedTitles.some(title => title.includes(normalized) || normalized.includes(title));
    if (matchesTitle && (!best || normalized.length > normalizeForMatch(best).length)) best = label;
  }
  return best ?? firstH1;
}

/** Where a text sits in the raw tree, for "why was it lost": `main > article > paragraph`. */
export function locateText(facts: RawFacts, needle: string): string | undefined {
  const wanted = normalizeForMatch(needle).slice(0, 40);
  if (!wanted) return undefined;
  let found: RawFacts['nodes'][number] | undefined;
  for (const entry of facts.nodes) {
    const own = normalizeForMatch(`${entry.node.name ?? ''}${entry.node.text ?? ''}`);
    if (own.includes(wanted)) found = entry;
    if (found) break;
  }
  if (!found) return undefined;
  const roles = [...found.path, found.node].map(node => node.role).filter(role => role !== 'generic');
  return `${roles.join(' > ')}${found.node.ref ? ` [${found.node.ref}]` : ''}`;
}
