import type { Browser, Page } from '@playwright/test';
import type { ActionEnv, KnownElement } from '../../agent/actions/core/types';
import { ContextTabs } from '../../agent/browser/context-tabs';
import { installEvaluateShim } from '../../agent/browser/evaluate-shim';
import { installGuards } from '../../agent/browser/guards';
import { EvidenceStore } from '../../agent/evidence/store';
import { installClickListenerMarks } from '../../agent/snapshot/click-listeners';
import { settings } from '../../agent/settings';
import { observe, type Observation } from '../../agent/snapshot';
import { CONTEXT_OPTIONS } from './browser';
import { tempDirFor } from './temp';

/**
 * One sample's browser context as the loop prepares it (click-listener marks, guards, an evidence store), for benches
 * that call bwa's actions with the refs of a look — written against what main and the branches share, so one bench
 * file measures both.
 */
export interface ActionSample {
  page: Page;
  store: EvidenceStore;
  env(elements: Map<string, KnownElement>): ActionEnv;
  close(): Promise<void>;
}

export interface Look {
  observation: Observation;
  elements: Map<string, KnownElement>;
}

export async function openActionSample(browser: Browser): Promise<ActionSample> {
  const context = await browser.newContext(CONTEXT_OPTIONS);
  await installEvaluateShim(context);
  await installClickListenerMarks(context);
  const page = await context.newPage();
  const tabs = new ContextTabs(context, page);
  const policy = {
    isAllowedUrl: () => true,
    resolvePlaceholders: (value: string) => value,
    inputDir: tempDirFor('inputs'),
    beforeNavigation: async () => {},
    maxDownloadBytes: settings.maxDownloadBytes,
  };
  // As a sample's context has them: dialogs answered, navigation guarded.
  await installGuards(context, { isAllowedUrl: policy.isAllowedUrl, dialogPolicy: 'accept', tabs });
  const store = new EvidenceStore(tempDirFor('truth'));
  const env = (elements: Map<string, KnownElement>): ActionEnv => ({
    page,
    context,
    store,
    signal: new AbortController().signal,
    policy,
    tabs,
    elements,
    reader: 'model',
    step: 1,
  });
  return { page, store, env, close: () => context.close() };
}

/** A look at the page: the observation, and its refs as the action layer knows them. */
export async function lookAt(page: Page): Promise<Look> {
  const observation = await observe(page);
  const elements = new Map<string, KnownElement>(
    [...observation.refs].map(([ref, node]) => [ref, { ref, role: node.role, name: node.name, text: node.text, selector: node.selector }]),
  );
  return { observation, elements };
}
