import type { SnapshotNode } from './types';

/** Lower-cased, de-duplicated; one-letter keywords are dropped because they match nearly every node. */
export function normalizeKeywords(keywords: readonly string[] | undefined): string[] {
  const seen = new Set<string>();
  for (const keyword of keywords ?? []) {
    const normalized = keyword.replace(/\s+/g, ' ').trim().toLowerCase();
    if (normalized.length >= 2) seen.add(normalized);
  }
  return [...seen];
}

export function matchesKeywords(node: SnapshotNode, keywords: readonly string[]): boolean {
  if (keywords.length === 0) return false;
  const fields = [node.name, node.text, node.url, node.value, node.placeholder, ...(node.options ?? [])];
  for (const field of fields) {
    if (!field) continue;
    const lower = field.toLowerCase();
    if (keywords.some((keyword) => lower.includes(keyword))) return true;
  }
  return false;
}
