import type { SnapshotNode } from './types';

/**
 * Task keywords match whole words, case-insensitively, with a simple plural/possessive stem at most:
 * "author" matches "Author", "authors" and "author's" but not "authorities"; "date" does not match
 * "updated". A keyword of several words matches them in sequence ("due date").
 */

export type Keyword = readonly string[];

/** Lower-cased word sequences, de-duplicated; a keyword with no letter or digit is dropped. */
export function normalizeKeywords(keywords: readonly string[] | undefined): Keyword[] {
  const seen = new Map<string, Keyword>();
  for (const keyword of keywords ?? []) {
    const words = wordsOf(keyword);
    if (words.length > 0) seen.set(words.join(' '), words);
  }
  return [...seen.values()];
}

export function wordsOf(value: string): string[] {
  return (value.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? []).map(stem);
}

/** Plural and possessive endings only: enough for "invoices"/"invoice", "companies"/"company". */
export function stem(word: string): string {
  let base = word.replace(/'s$/, '');
  if (base.length > 4 && base.endsWith('ies')) base = `${base.slice(0, -3)}y`;
  else if (base.length > 4 && /(ss|x|z|ch|sh)es$/.test(base)) base = base.slice(0, -2);
  else if (base.length > 3 && base.endsWith('s') && !base.endsWith('ss') && !base.endsWith('us')) base = base.slice(0, -1);
  return base;
}

export function textMatchesKeywords(value: string | undefined, keywords: readonly Keyword[]): boolean {
  if (!value || keywords.length === 0) return false;
  const words = wordsOf(value);
  return keywords.some(keyword => containsSequence(words, keyword));
}

export function matchesKeywords(node: SnapshotNode, keywords: readonly Keyword[]): boolean {
  if (keywords.length === 0) return false;
  const fields = [node.name, node.text, node.url, node.value, node.placeholder, ...(node.options ?? [])];
  return fields.some(field => textMatchesKeywords(field, keywords));
}

function containsSequence(words: readonly string[], sequence: readonly string[]): boolean {
  outer: for (let start = 0; start + sequence.length <= words.length; start++) {
    for (let offset = 0; offset < sequence.length; offset++) {
      if (words[start + offset] !== sequence[offset]) continue outer;
    }
    return true;
  }
  return false;
}
