import type { Locator, Page } from '@playwright/test';
import { z } from 'zod';
import { INTERACTIVE_SELECTOR } from '../../snapshot/roles';
import { describeLocator, pickedIndex, SemanticLocator } from '../../task/locator-schema';
import { conciseError, isPageGone, PAGE_GONE_MESSAGE } from '../core/errors';
import {
  describeKnown,
  findKnownByName,
  isAriaRole,
  listKnown,
  rememberElements,
  rememberedElement,
  semanticOf,
  similarElements,
} from './known-elements';
import { recipeAmbiguityMessage } from './ambiguity';
import { liveRef, refLocator, relocateAddedRef, relocateRef } from '../../snapshot/live-refs';
import { elementIdIn, ELEMENT_IDS_KEY } from '../../snapshot/element-ids';
import { locate, type LocateOptions, type Located } from '../values/locate';
import { semanticFromDom } from './semantic-from-dom';
import { ActionError, NotFoundError, type ActionEnv, type KnownElement, type Reader } from '../core/types';

export { describeKnown, semanticOf } from './known-elements';

/**
 * `e12` and `f1e3` come from Playwright's AI snapshot; `c4` names a clickable it leaves out and `t4` a text block an
 * empty tree leaves out, both found by observe() with a CSS path; `d4` is a line of the page's document section.
 */
export const REF_PATTERN = /^(?:(?:f\d+)?e\d+|[ctd]\d+)$/;

/** A line of the document section (what the page says about itself), read by its source and key, not as an element. */
export function isDocumentRef(ref: string): boolean {
  return /^d\d+$/.test(ref);
}
/** Several refs in one target ("e12 e15 e18", or comma-separated): how the model names the elements of a list to read at once. */
export function refList(target: TargetArg): string[] | undefined {
  if (typeof target !== 'string') return undefined;
  const parts = target.trim().split(/[\s,]+/);
  return parts.length > 1 && parts.every(part => REF_PATTERN.test(part)) ? parts : undefined;
}

/** The model sometimes copies a whole line of the page state: `[e12] link "linux" → /torvalds/linux`. */
const LINE_REF = /^\[((?:f\d+)?e\d+|[ctd]\d+)\]/;
/** `button "Follow"`: a role and an accessible name, the way the page state prints them. */
const ROLE_AND_NAME = /^([a-z]+) "(.+)"$/;

/** The form the model uses; the object forms are for recorded recipes. */
export const TargetText = z.string().min(1).describe('A ref from the page state (e.g. "e12"), the visible text, or "css=<selector>"');

export const TargetArg = z
  .union([TargetText, SemanticLocator])
  .describe('The element: a ref from the page state (e.g. "e12"), its visible text, or "css=<selector>" as a last resort');
export type TargetArg = z.infer<typeof TargetArg>;

export interface ResolvedTarget {
  locator: Locator;
  /** How a person would name the element; what the action log records and a recipe replays. */
  element: SemanticLocator;
  label: string;
  ref?: string;
}

const EXISTS_TIMEOUT_MS = 2_000;

export interface ResolveOptions {
  /** Several matches are fine (extract all): no ambiguity error. */
  allowMany?: boolean;
}

/** A recipe's author is told about several matches in locator terms; without a reader, the model is addressed. */
type TargetEnv = Pick<ActionEnv, 'page' | 'elements'> & { reader?: Reader };

/**
 * A ref from the latest snapshot first; otherwise the visible text — an element of the snapshot with that
 * role/name, then Playwright's text match (exact before partial); `css=` only when asked for.
 */
export async function resolveTarget(target: TargetArg, env: TargetEnv, options: ResolveOptions = {}): Promise<ResolvedTarget> {
  const { page, elements } = env;
  if (page.isClosed()) throw new ActionError(PAGE_GONE_MESSAGE, true);
  rememberElements(page, elements);
  const reader = env.reader ?? 'model';
  if (typeof target !== 'string') return resolveSemantic(page, target, elements, options, reader);
  const trimmed = target.trim();
  const ref = REF_PATTERN.test(trimmed) ? trimmed : LINE_REF.exec(trimmed)?.[1];
  if (ref) return resolveRef(page, ref, elements);
  if (trimmed.startsWith('css=')) return resolveSemantic(page, { css: trimmed.slice(4) }, elements, options, reader);
  const roleMatch = ROLE_AND_NAME.exec(trimmed);
  const roleAndName = roleMatch?.[1] && isAriaRole(roleMatch[1]) ? roleMatch : null;
  const name = roleAndName?.[2] ?? trimmed;
  const known = findKnownByName(elements, name, roleAndName?.[1]);
  // The model named it, not its ref: if that snapshot element is gone, the live page is searched instead.
  if (known?.ref && (await countOrZero(refLocator(page, known.ref))) > 0) return resolveRef(page, known.ref, elements);
  if (roleAndName?.[1] && roleAndName[2]) return resolveSemantic(page, { role: roleAndName[1], name: roleAndName[2] }, elements, options, reader);
  return resolveSemantic(page, { text: trimmed }, elements, options, reader);
}

async function resolveRef(page: Page, ref: string, elements: ReadonlyMap<string, KnownElement>): Promise<ResolvedTarget> {
  if (ref.startsWith('c') || ref.startsWith('t')) return resolveAddedRef(page, ref, elements);
  if (isDocumentRef(ref)) throw new ActionError(`${ref} is a line of the document section: only extract reads it`);
  let locator = refLocator(page, ref);
  // A control the page redrew since the last look has a new node: the one with its role, name and place takes the ref.
  if ((await countOrZero(locator)) === 0 && (await relocateRef(page, ref).catch(() => false))) locator = refLocator(page, ref);
  const count = await countOrZero(locator);
  const known = elements.get(ref) ?? rememberedElement(page, ref);
  if (count === 0) throw new ActionError(staleRefMessage(ref, known, elements));
  const element = known ? semanticOf(known) : await semanticFromDom(locator, { css: `aria-ref=${liveRef(page, ref)}` });
  const label = known ? `[${ref}] ${describeKnown(known)}` : `[${ref}] ${describeLocator(element)}`;
  return { locator, element, label, ref };
}

/**
 * An element the AI snapshot leaves out (an icon drawn by CSS, a bare slider handle, hidden text): found again by its
 * CSS path, and only if the element there is still the one the page state named; one the page redrew is looked for
 * again (the same control drawn anew or elsewhere), never taken from whatever now sits on the path.
 */
async function resolveAddedRef(page: Page, ref: string, elements: ReadonlyMap<string, KnownElement>): Promise<ResolvedTarget> {
  const known = elements.get(ref);
  if (!known?.selector) throw new ActionError(`${ref} is not in the latest page state — take a fresh look at the page state and use a current ref`);
  let found = await addedElement(page, { ...known, selector: known.selector });
  if (!found && known.element) {
    const now = await relocateAddedRef(page, ref).catch(() => undefined);
    if (now) found = await addedElement(page, { ...known, ...now });
  }
  if (!found) throw new ActionError(staleRefMessage(ref, known, elements));
  return { locator: found.locator, element: { css: found.selector }, label: `[${ref}] ${describeKnown(known)}`, ref };
}

async function addedElement(page: Page, known: KnownElement & { selector: string }): Promise<{ locator: Locator; selector: string } | undefined> {
  const locator = page.locator(known.selector);
  if ((await countOrZero(locator)) !== 1 || !(await showsSameText(locator, known))) return undefined;
  if (known.element) {
    // Into view first: a list that draws only what is in view draws again as it scrolls, and the action's own scroll
    // would leave the path holding another item's control.
    await locator.scrollIntoViewIfNeeded({ timeout: EXISTS_TIMEOUT_MS }).catch(() => undefined);
    await page.evaluate(() => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)))).catch(() => undefined);
    const element = await locator.evaluate(elementIdIn, ELEMENT_IDS_KEY, { timeout: EXISTS_TIMEOUT_MS }).catch(() => undefined);
    if (element !== known.element) return undefined;
  }
  return { locator, selector: known.selector };
}

/** A path through the page can lead to another element once the page changed: one whose text differs is not it. */
async function showsSameText(locator: Locator, known: KnownElement): Promise<boolean> {
  if (!known.name) return true;
  const text = await locator
    .evaluate(el => (el.textContent ?? '').replace(/\s+/g, ' ').trim(), undefined, { timeout: EXISTS_TIMEOUT_MS })
    .catch(() => undefined);
  return text === undefined || text === known.name;
}

function staleRefMessage(ref: string, known: KnownElement | undefined, elements: ReadonlyMap<string, KnownElement>): string {
  const similar = known ? similarElements(elements, known, ref) : [];
  if (similar.length) return `${ref} is no longer on the page; similar: ${similar.join(', ')} — take a fresh look at the page state`;
  if (known) return `${ref} (${describeKnown(known)}) is no longer on the page — take a fresh look at the page state and use a current ref`;
  return `${ref} is not in the latest page state — take a fresh look at the page state and use a current ref`;
}

async function resolveSemantic(
  page: Page,
  target: SemanticLocator,
  elements: ReadonlyMap<string, KnownElement>,
  options: ResolveOptions,
  reader: Reader,
): Promise<ResolvedTarget> {
  const located = await locateOrFail(candidateLocators(page, target), target, {
    many: options.allowMany,
    nth: pickedIndex(target),
    controls: CONTROL,
    waitMs: EXISTS_TIMEOUT_MS,
  });
  if (located.found === 'one') return { element: target, label: describeLocator(target), locator: located.locator };
  if (located.found === 'past')
    throw new ActionError(
      `${describeLocator(target)}: "nth": ${located.nth} picks past the ${located.count} element${located.count === 1 ? '' : 's'} it matches (0-based)`,
    );
  if (located.found === 'several')
    throw new ActionError(
      reader === 'recipe' ? await recipeAmbiguityMessage(target, located.locator, located.count) : ambiguityMessage(target, located.count, elements),
    );
  throw new NotFoundError(`No element matches ${describeLocator(target)}`, false, {
    model: 'check the page state for the exact text, or scroll to reveal it',
    recipe: `none on this page after ${EXISTS_TIMEOUT_MS / 1000} s; check the locator against the page`,
  });
}

/** A selector the page cannot parse (bad CSS) is the locator's error, not "none"; a closed tab is the tab's. */
async function locateOrFail(candidates: Locator[], target: SemanticLocator, options: LocateOptions): Promise<Located> {
  try {
    return await locate(candidates, options);
  } catch (error) {
    if (isPageGone(error)) throw new ActionError(PAGE_GONE_MESSAGE, true);
    throw new ActionError(`${describeLocator(target)}: ${conciseError(error)}`);
  }
}

function ambiguityMessage(target: SemanticLocator, count: number, elements: ReadonlyMap<string, KnownElement>): string {
  const name = 'name' in target ? target.name : 'text' in target ? target.text : 'label' in target ? target.label : undefined;
  const listed = name ? listKnown(elements, name) : [];
  const which = listed.length ? `: ${listed.join(', ')}` : '';
  return `${describeLocator(target)} matches ${count} elements${which} — use the ref of the one you mean`;
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

/** A ref that cannot match (one of a removed frame) counts as no match; a closed tab does not. */
async function countOrZero(locator: Locator): Promise<number> {
  try {
    return await locator.count();
  } catch (error) {
    if (isPageGone(error)) throw new ActionError(PAGE_GONE_MESSAGE, true);
    return 0;
  }
}

/** Something to act on: an interactive element, or a label (clicking it acts on its control). */
export const CONTROL = `${INTERACTIVE_SELECTOR},label`;
