import type { Locator, Page } from '@playwright/test';
import { z } from 'zod';
import { describeLocator, SemanticLocator } from '../task/locator-schema';
import { ActionError, type ActionEnv, type KnownElement } from './types';

export const REF_PATTERN = /^(?:f\d+)?e\d+$/;

export const TargetArg = z
  .union([z.string().min(1), SemanticLocator])
  .describe('The element: a ref from the page state (e.g. "e12"), its visible text, or "css=<selector>" as a last resort');
export type TargetArg = z.infer<typeof TargetArg>;

export interface ResolvedTarget {
  locator: Locator;
  /** How a person would name the element; what the action log records and a recipe replays. */
  element: SemanticLocator;
  label: string;
}

const EXISTS_TIMEOUT_MS = 2_000;

export interface ResolveOptions {
  /** Several matches are fine (extract all): no ambiguity error. */
  allowMany?: boolean;
}

export async function resolveTarget(target: TargetArg, env: Pick<ActionEnv, 'page' | 'elements'>, options: ResolveOptions = {}): Promise<ResolvedTarget> {
  const { page } = env;
  if (typeof target !== 'string') return resolveSemantic(page, target, options);
  const trimmed = target.trim();
  if (REF_PATTERN.test(trimmed)) return resolveRef(page, trimmed, env.elements);
  if (trimmed.startsWith('css=')) return resolveSemantic(page, { css: trimmed.slice(4) }, options);
  const known = findByName(env.elements, trimmed);
  if (known?.ref) return resolveRef(page, known.ref, env.elements);
  return resolveSemantic(page, { text: trimmed }, options);
}

async function resolveRef(page: Page, ref: string, elements: ReadonlyMap<string, KnownElement>): Promise<ResolvedTarget> {
  const known = elements.get(ref);
  const locator = page.getByRef(ref);
  if ((await countQuickly(locator)) === 0) {
    const similar = known ? similarElements(elements, known, ref) : [];
    const hint = similar.length ? `; similar: ${similar.join(', ')}` : '';
    throw new ActionError(`${ref} is no longer on the page${hint} — take a fresh look at the page state and use a current ref`);
  }
  const element = known ? semanticOf(known) : { css: `aria-ref=${ref}` };
  return { locator, element, label: known ? `[${ref}] ${describeKnown(known)}` : ref };
}

async function resolveSemantic(page: Page, target: SemanticLocator, options: ResolveOptions): Promise<ResolvedTarget> {
  const candidates = candidateLocators(page, target);
  for (const locator of candidates) {
    const count = await countQuickly(locator);
    if (count === 0) continue;
    if (count > 1 && target.nth === undefined && !options.allowMany) {
      const visible = locator.filter({ visible: true });
      const visibleCount = await countQuickly(visible);
      if (visibleCount === 1) return { locator: visible, element: target, label: describeLocator(target) };
      throw new ActionError(`${describeLocator(target)} matches ${count} elements — use a ref from the page state to pick one`);
    }
    return { locator: target.nth !== undefined ? locator.nth(target.nth) : locator, element: target, label: describeLocator(target) };
  }
  throw new ActionError(`No element matches ${describeLocator(target)} — check the page state for the exact text, or scroll to reveal it`);
}

function candidateLocators(page: Page, target: SemanticLocator): Locator[] {
  const exactFirst = (make: (exact: boolean) => Locator, exact?: boolean) => (exact === undefined ? [make(true), make(false)] : [make(exact)]);
  if ('role' in target) {
    const role = target.role as Parameters<Page['getByRole']>[0];
    if (target.name === undefined) return [page.getByRole(role)];
    return exactFirst(exact => page.getByRole(role, { name: target.name, exact }), target.exact);
  }
  if ('label' in target) return exactFirst(exact => page.getByLabel(target.label, { exact }));
  if ('text' in target) return exactFirst(exact => page.getByText(target.text, { exact }), target.exact);
  if ('placeholder' in target) return exactFirst(exact => page.getByPlaceholder(target.placeholder, { exact }));
  if ('testId' in target) return [page.getByTestId(target.testId)];
  return [page.locator(target.css)];
}

async function countQuickly(locator: Locator): Promise<number> {
  try {
    await locator.first().waitFor({ state: 'attached', timeout: EXISTS_TIMEOUT_MS });
  } catch {
    return 0;
  }
  return locator.count();
}

function findByName(elements: ReadonlyMap<string, KnownElement>, text: string): KnownElement | undefined {
  const all = [...elements.values()].filter(e => e.ref);
  const lower = text.toLowerCase();
  const exact = all.filter(e => e.name === text);
  if (exact.length === 1) return exact[0];
  const loose = all.filter(e => e.name?.toLowerCase() === lower);
  return loose.length === 1 ? loose[0] : undefined;
}

function similarElements(elements: ReadonlyMap<string, KnownElement>, known: KnownElement, ref: string): string[] {
  return [...elements.values()]
    .filter(e => e.ref && e.ref !== ref && e.role === known.role && (known.name === undefined || e.name === known.name))
    .slice(0, 3)
    .map(e => `[${e.ref}] ${describeKnown(e)}`);
}

export function describeKnown(element: KnownElement): string {
  const name = element.name ?? element.text;
  return name ? `${element.role} ${JSON.stringify(name)}` : element.role;
}

export function semanticOf(known: KnownElement): SemanticLocator {
  if (known.name) return { role: known.role, name: known.name };
  if (known.text) return { text: known.text };
  return { role: known.role };
}
