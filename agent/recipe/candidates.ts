import type { Page } from '@playwright/test';
import { semanticFromDom } from '../actions/targets/semantic-from-dom';
import type { SemanticLocator } from '../task/locator-schema';
import { cssCandidatesInPage, nthCandidatesInPage } from './css-in-page';
import type { Handle } from './locate';
import { mentionsAny } from './templatize';

/**
 * Locators for the element(s) that name none of the sample's own values, best first. Row values may appear
 * in attribute values (`[data-login="ada"]`): the caller turns them into {{column}} templates.
 */
export async function candidateLocators(
  page: Page,
  targets: Handle[],
  sampleValues: readonly string[],
  rowValues: readonly string[] = [],
): Promise<SemanticLocator[]> {
  const first = targets[0];
  if (!first) return [];
  const semantic = targets.length === 1 ? await semanticCandidates(page, first, sampleValues) : [];
  const css = await page.evaluate(cssCandidatesInPage, { targets, forbidden: [...sampleValues], row: [...rowValues] });
  const nth = targets.length === 1 ? await page.evaluate(nthCandidatesInPage, { target: first, forbidden: [...sampleValues, ...rowValues] }) : [];
  return [...semantic.filter(s => !isContent(s)), ...css, ...semantic.filter(isContent), ...nth];
}

/** A name that reads like page content rather than a control's label: long, or carrying numbers or punctuation. */
export function isContent(locator: SemanticLocator): boolean {
  const shown = 'name' in locator ? locator.name : 'text' in locator ? locator.text : undefined;
  const words = shown?.replace(/\{\{[^}]+\}\}/g, 'x');
  if (!words || words === 'x') return false;
  return words.split(/\s+/).length > 4 || /[\d#/(]/.test(words);
}

async function semanticCandidates(page: Page, el: Handle, sampleValues: readonly string[]): Promise<SemanticLocator[]> {
  const facts = await el.evaluate(e => {
    const control = e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement || e instanceof HTMLSelectElement ? e : null;
    return {
      testId: e.getAttribute('data-testid'),
      label: control?.labels?.[0]?.innerText?.replace(/\s+/g, ' ').trim() || null,
      placeholder: e.getAttribute('placeholder'),
    };
  });
  const out: SemanticLocator[] = [];
  const constant = (text: string | null): text is string => Boolean(text) && !mentionsAny(text!, sampleValues);
  if (constant(facts.testId)) out.push({ testId: facts.testId });
  if (constant(facts.label)) out.push({ label: facts.label });
  const aria = await identityOf(page, el);
  if (aria && 'role' in aria && aria.name && constant(aria.name) && aria.role !== 'generic')
    out.push({ role: aria.role, name: aria.name, exact: true });
  if (constant(facts.placeholder)) out.push({ placeholder: facts.placeholder });
  return out;
}

/** Playwright's role and name for an element handle (marked for a moment so a locator can find it). */
async function identityOf(page: Page, el: Handle): Promise<SemanticLocator | undefined> {
  const mark = `bwa-${Math.random().toString(36).slice(2, 10)}`;
  await el.evaluate((e, m) => e.setAttribute('data-bwa-bind', m), mark);
  try {
    return await semanticFromDom(page.locator(`[data-bwa-bind="${mark}"]`), { css: '*' });
  } catch {
    return undefined;
  } finally {
    await el.evaluate(e => e.removeAttribute('data-bwa-bind')).catch(() => {});
  }
}
