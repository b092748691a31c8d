import type { Locator } from '@playwright/test';
import type { ActionCall } from '../core/dispatch';
import type { ActionEnv } from '../core/types';
import { elementArguments } from '../registry';
import { refLocator } from '../../snapshot/live-refs';
import { elementPathInPage } from './element-path-in-page';
import { REF_PATTERN, refList } from './target';

const PATH_READ_MS = 1_000;

/**
 * Where each element the model named by ref sat on the page when it acted, as a CSS path. A ref dies with its
 * snapshot and its role and name may fit many elements (an unnamed paragraph, a generic block): a recipe compiler
 * replaying the same sample finds the very element again by this path, then works out a locator that holds for
 * other samples. Read before acting (a click may leave the page); refs that no longer resolve record nothing.
 */
export async function elementPathsOf(call: ActionCall, env: Pick<ActionEnv, 'page'>): Promise<Record<string, string[]> | undefined> {
  const paths: Record<string, string[]> = {};
  for (const arg of elementArguments(call.name)) {
    const value = call.args[arg];
    if (typeof value !== 'string') continue;
    const refs = refList(value) ?? (REF_PATTERN.test(value.trim()) ? [value.trim()] : []);
    // `c` refs already carry the CSS path they were found by.
    const snapshotRefs = refs.filter(ref => !ref.startsWith('c'));
    if (!snapshotRefs.length || snapshotRefs.length !== refs.length) continue;
    const found: string[] = [];
    for (const ref of snapshotRefs) {
      // A printed ref may stand for a control the page redrew since: its current element, as actions find it.
      const path = await withinTime(pathOf(refLocator(env.page, ref)));
      if (!path) break;
      found.push(path);
    }
    if (found.length === snapshotRefs.length) paths[arg] = found;
  }
  return Object.keys(paths).length ? paths : undefined;
}

/** (`evaluateAll` finds nothing by `aria-ref`: the count comes first.) */
async function pathOf(locator: Locator): Promise<string | null> {
  if ((await locator.count().catch(() => 0)) !== 1) return null;
  return locator.evaluate(elementPathInPage, undefined, { timeout: PATH_READ_MS }).catch(() => null);
}

/** A page held up by a dialog must not hold up the action: the path is only a help for later. */
function withinTime<T>(read: Promise<T | null>): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>(resolve => (timer = setTimeout(() => resolve(null), PATH_READ_MS)));
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}
