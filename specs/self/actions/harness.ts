import { test as base, expect } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dispatch, type DispatchOptions } from '../../../agent/actions/core/dispatch';
import type { ActionEnv, ActionPolicy, ActionResult, KnownElement } from '../../../agent/actions/core/types';
import { installClickListenerMarks } from '../../../agent/snapshot/click-listeners';
import { installClosedShadowRootMarks } from '../../../agent/snapshot/closed-shadow-roots';
import { isUrlAllowed } from '../../../agent/browser/domains';
import { installGuards } from '../../../agent/browser/guards';
import { ContextTabs } from '../../../agent/browser/context-tabs';
import { resolveForSite } from '../../../agent/secrets/scope';
import { EvidenceStore } from '../../../agent/evidence/store';
import { knownElements } from '../../../agent/loop/view';
import { PageStateFocus } from '../../../agent/loop/page-state-focus';
import { observe, type Observation, type ObserveOptions } from '../../../agent/snapshot';
import { settings } from '../../../agent/settings';
import { SITE, SITE_HOST } from '../helpers/sites';

export const WIDGETS = SITE.widgets;
export const PEOPLE = SITE.people;
export const ALLOWED_DOMAINS = [SITE_HOST.people, SITE_HOST.widgets];
export const SECRET_VALUE = 'hunter2-correct-horse';
/** The harness's secrets belong on the widget lab only: the people site is allowed to visit, not to type them on. */
export const SECRET_SCOPES = {
  PASSWORD: { sites: [SITE_HOST.widgets], from: "the harness's secret_sites" },
  API_TOKEN: { sites: [SITE_HOST.widgets], from: "the harness's secret_sites" },
  ledger_pin: { sites: [SITE_HOST.widgets], from: "the harness's secret_sites" },
};
export const LOWER_CASE_SECRET = 'pin-4711-ledger';

/** Drives actions the way the loop does: a real ActionEnv, guards installed, refs from the latest observation. */
export interface ActionHarness {
  tabs: ContextTabs;
  store: EvidenceStore;
  policy: ActionPolicy;
  /** Takes a fresh observation of the active tab; its refs become the ones actions resolve against. */
  look(options?: Pick<ObserveOptions, 'keywords' | 'tokenBudget'>): Promise<ReadonlyMap<string, KnownElement>>;
  /** The latest observation (after look()). */
  observation(): Observation;
  /** The ref of the element with this role and name in the latest observation. */
  ref(role: string, name: string | RegExp): string;
  act(name: string, args?: Record<string, unknown>, options?: DispatchOptions): Promise<ActionResult>;
  /** act() that must succeed. */
  ok(name: string, args?: Record<string, unknown>, options?: DispatchOptions): Promise<ActionResult>;
  /** Serves a small page of the test's own at WIDGETS/__actions/<name> (an allowed URL) and opens it. */
  open(name: string, body: string): Promise<void>;
  /** Every announcement so far (drained from the tabs and kept). */
  announcements(): string[];
  env(): ActionEnv;
}

export const test = base.extend<{ dialogPolicy: 'accept' | 'dismiss'; harness: ActionHarness }>({
  dialogPolicy: ['accept', { option: true }],
  harness: async ({ page, context, dialogPolicy }, use, testInfo) => {
    const store = new EvidenceStore(testInfo.outputPath('evidence'));
    const inputDir = testInfo.outputPath('inputs');
    fs.mkdirSync(inputDir, { recursive: true });
    fs.writeFileSync(path.join(inputDir, 'receipt.txt'), 'Taxi 12.50 EUR\n');
    const tabs = new ContextTabs(context, page);
    const policy: ActionPolicy = {
      isAllowedUrl: url => isUrlAllowed(url, ALLOWED_DOMAINS),
      resolvePlaceholders: (text, url) =>
        resolveForSite(
          text,
          url,
          { secrets: { PASSWORD: SECRET_VALUE, ledger_pin: LOWER_CASE_SECRET }, settings: { SHOP_USER: 'ada' } },
          SECRET_SCOPES,
        ),
      inputDir,
      beforeNavigation: async () => {},
      maxDownloadBytes: settings.maxDownloadBytes,
    };
    await installGuards(context, { isAllowedUrl: policy.isAllowedUrl, dialogPolicy, tabs });
    // As a sample's context has it (session.ts): the page state knows which elements have click listeners.
    await installClickListenerMarks(context);
    await installClosedShadowRootMarks(context);
    let elements: ReadonlyMap<string, KnownElement> = new Map();
    let latest: Observation | undefined;
    const focus = new PageStateFocus();
    const heard: string[] = [];
    const env = (): ActionEnv => ({
      page: tabs.active,
      context,
      store,
      signal: new AbortController().signal,
      policy,
      tabs,
      elements,
      pageState: focus,
      reader: 'model',
      step: 1,
    });
    const act = (name: string, args: Record<string, unknown> = {}, options?: DispatchOptions) => dispatch({ name, args }, env(), options);
    await use({
      tabs,
      store,
      policy,
      env,
      act,
      async open(name, body) {
        const url = `${WIDGETS}/__actions/${name}`;
        await page.route(url, route =>
          route.fulfill({
            contentType: 'text/html',
            body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title></head><body>${body}</body></html>`,
          }),
        );
        await page.goto(url);
      },
      async look(options = {}) {
        latest = await observe(tabs.active, { ...options, ...focus.forNextLook(tabs.active.url()) });
        focus.remember(latest);
        elements = knownElements(latest);
        return elements;
      },
      observation() {
        if (!latest) throw new Error('look() first');
        return latest;
      },
      ref(role, name) {
        const found = [...elements.values()].find(e => e.role === role && (typeof name === 'string' ? e.name === name : name.test(e.name ?? '')));
        if (!found?.ref)
          throw new Error(
            `no ${role} "${name}" in the latest observation: ${[...elements.values()].map(e => `${e.ref} ${e.role} ${e.name ?? ''}`).join('; ')}`,
          );
        return found.ref;
      },
      async ok(name, args = {}, options) {
        const result = await act(name, args, options);
        expect(result, `${name} ${JSON.stringify(args)} → ${result.error ?? ''}`).toMatchObject({ success: true });
        return result;
      },
      announcements() {
        heard.push(...tabs.drainEvents());
        return [...heard];
      },
    });
  },
});

export { expect };
