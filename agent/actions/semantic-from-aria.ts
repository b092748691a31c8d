import type { Locator } from '@playwright/test';
import type { SemanticLocator } from '../task/locator-schema';

/** First line of an aria snapshot: `- button "Follow"`, `- link "Docs":`, `- paragraph: Some text`, `- text: hi`. */
const FIRST_LINE = /^- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?(?: \[[^\]]*\])*:? ?(.*)$/;

/**
 * How a person would point at an element the snapshot did not describe to us (a ref with no element
 * map, e.g. a recipe replay): Playwright's own role and accessible name for it.
 */
export async function semanticFromAria(locator: Locator, fallback: SemanticLocator): Promise<SemanticLocator> {
  const yaml = await locator.ariaSnapshot({ timeout: 2_000 }).catch(() => '');
  const match = FIRST_LINE.exec(yaml.split('\n')[0]?.trim() ?? '');
  if (!match?.[1]) return fallback;
  const [, role, quotedName, rest] = match;
  const name = quotedName === undefined ? undefined : unescapeQuoted(quotedName);
  if (role === 'text' && rest) return { text: rest.slice(0, 100) };
  if (name) return { role, name };
  if (rest && !rest.startsWith('/')) return { text: rest.slice(0, 100) };
  return { role };
}

function unescapeQuoted(text: string): string {
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return text;
  }
}
