import type { Locator, Page } from '@playwright/test';
import type { SemanticLocator } from '../../task/locator-schema';

/**
 * The control as it is now. A page that re-renders a control when it changes (a calendar redrawing its month
 * and year selects, a list re-keyed by its framework) puts a new DOM node in its place, and a ref bound to the
 * old node matches nothing: reading it would wait out the element timeout and call a change that happened a
 * failure. So the check afterwards reads the same locator while it matches, else the one element with the
 * same role and name; undefined when neither is there (the control really left the page).
 */
export async function controlNow(page: Page, locator: Locator, element: SemanticLocator): Promise<Locator | undefined> {
  if ((await matches(locator)) > 0) return locator;
  if (!('role' in element) || !element.name) return undefined;
  const successor = page.getByRole(element.role as Parameters<Page['getByRole']>[0], { name: element.name, exact: true });
  return (await matches(successor)) === 1 ? successor : undefined;
}

const matches = (locator: Locator) => locator.count().catch(() => 0);
