import { expect, test, type Page } from '@playwright/test';
import { defaultTokenBudget, observe, type Observation, type SnapshotNode } from '../../../agent/snapshot';
import { SITE } from '../helpers/sites';

const WIDGETS = SITE.widgets;
const PEOPLE = SITE.people;

async function isUp(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch {
    return false;
  }
}

function find(observation: Observation, predicate: (node: SnapshotNode) => boolean): SnapshotNode {
  const node = observation.nodes.find(predicate);
  expect(node, `no kept node matched in:\n${observation.text}`).toBeDefined();
  return node as SnapshotNode;
}

async function open(page: Page, slug: string): Promise<void> {
  await page.goto(`${WIDGETS}/${slug}`);
  await expect(page.locator('h1').first()).toBeVisible();
}

test.describe('widget lab pages', () => {
  test.beforeAll(async () => {
    // A stand-in site that is down fails the tests that need it: a skip would pass for a green run.
    expect(await isUp(WIDGETS), `widgets fixture site is not running at ${WIDGETS} (npm test starts it)`).toBe(true);
  });

  test('svg-status: pass/fail lives only in SVG icons, so confidence is low', async ({ page }) => {
    await open(page, 'svg-status');
    const observation = await observe(page);
    expect(observation.confidence.svgOnlyIcons).toBe(7);
    expect(observation.confidence.score).toBeLessThan(0.6);
  });

  test('canvas-chart: numbers drawn on a canvas give low confidence', async ({ page }) => {
    await open(page, 'canvas-chart');
    const observation = await observe(page);
    expect(observation.confidence.canvasShare).toBeGreaterThan(0.1);
    expect(observation.confidence.score).toBeLessThan(0.6);
  });

  test('form-tabs: an ordinary form page scores high', async ({ page }) => {
    await open(page, 'form-tabs');
    const observation = await observe(page);
    expect(observation.confidence.score).toBeGreaterThanOrEqual(0.85);
    expect(observation.text).toMatch(/\[\w+\] textbox "First name" \(required\)/);
  });

  test('shadow-dom: controls inside an open shadow root are listed and act through their refs', async ({ page }) => {
    await open(page, 'shadow-dom');
    await expect(page.getByRole('button', { name: 'Subscribe' })).toBeVisible();
    const observation = await observe(page);
    const email = find(observation, node => node.role === 'textbox' && node.name === 'Email address');
    const subscribe = find(observation, node => node.role === 'button' && node.name === 'Subscribe');
    await page.getByRef(email.ref ?? '').fill('ada@example.com');
    await page.getByRef(subscribe.ref ?? '').click();
    await expect(page.locator('#result')).toHaveText('Subscribed: ada@example.com');
  });

  test('iframe-same: refs of the framed form resolve inside the frame', async ({ page }) => {
    await open(page, 'iframe-same');
    await expect(page.frameLocator('iframe').getByRole('button', { name: 'Send' })).toBeVisible();
    const observation = await observe(page);
    const name = find(observation, node => node.role === 'textbox' && node.name === 'Your name');
    const send = find(observation, node => node.role === 'button' && node.name === 'Send');
    expect(name.ref).toMatch(/^f\d+e\d+$/);
    expect(name.frameRef).toBeDefined();
    await page.getByRef(name.ref ?? '').fill('Grace');
    await page.getByRef(send.ref ?? '').click();
    await expect(page.locator('#result')).toHaveText('Received from frame: Grace');
  });

  test('iframe-cross: a cross-origin frame is observed and its refs resolve', async ({ page }) => {
    expect(await isUp(PEOPLE), `people fixture site is not running at ${PEOPLE} (npm test starts it)`).toBe(true);
    await open(page, 'iframe-cross');
    await expect(page.frameLocator('iframe').getByRole('heading', { level: 1 })).toBeVisible();
    const observation = await observe(page);
    const follow = find(observation, node => node.role === 'button' && node.name === 'Follow' && !!node.frameRef);
    await expect(page.getByRef(follow.ref ?? '')).toHaveAccessibleName('Follow');
    expect(observation.text).toMatch(/\[\w+\] iframe\n( \[\w+\] .*\n)+/);
  });

  test('big-page: the buried invoice and the quarterly totals survive pruning of 10,000+ nodes, within budget', async ({ page }) => {
    await open(page, 'big-page');
    const invoice = await observe(page, { keywords: ['INV-7731'] });
    expect(invoice.stats.rawNodes).toBeGreaterThan(10_000);
    expect(invoice.text).toMatch(/row "Invoice INV-7731 \| 2025-11-03 \| Globex Ltd \| \$4,210\.00 \| Overdue"/);
    expect(invoice.stats.estimatedTokens).toBeLessThanOrEqual(defaultTokenBudget());
    const row = find(invoice, node => node.text?.includes('INV-7731') ?? false);
    await expect(page.getByRef(row.ref ?? '')).toContainText('Globex Ltd');

    const totals = await observe(page, { keywords: ['quarterly totals'] });
    for (const line of ['Q1 | $1,204,311.50', 'Q2 | $1,387,902.25', 'Q3 | $1,156,440.00', 'Q4 | $1,498,075.75']) {
      expect(totals.text).toContain(`row "${line}"`);
    }
  });

  test('late-hydration: the shell reads as loading, the hydrated page shows its fields', async ({ page }) => {
    // Hydration waits long enough that the first look sees the shell even on a loaded machine (one observe took >800 ms).
    await page.goto(`${WIDGETS}/late-hydration?hydrate_ms=5000`);
    const shell = await observe(page);
    expect(shell.text).toContain('text "Loading…"');
    await expect(page.getByRole('heading', { name: 'Account overview' })).toBeVisible({ timeout: 20_000 });
    const hydrated = await observe(page);
    expect(hydrated.title).toBe('Account overview — Billing');
    expect(hydrated.text).toMatch(/heading "Account overview" \(level 1\)/);
    expect(hydrated.text).toContain('ACC-20931');
    expect(hydrated.text).toMatch(/button "Download statement"/);
  });

  test('exact-text: a value whose spacing matters is shown exactly and marked; a typed copy of it is too', async ({ page }) => {
    await open(page, 'exact-text');
    await page.locator('#answer').fill(' Ship to  Dock 7');
    const observation = await observe(page);
    expect(observation.text).toMatch(
      /\[e\d+\] textbox "Delivery instruction" value="Ship to  Dock 7 " multiline \(readonly, spacing: 1 space at the end, doubled spaces inside\)/,
    );
    expect(observation.text).toMatch(/\[e\d+\] textbox "Answer" value=" Ship to  Dock 7" \(spacing: 1 space at the start, doubled spaces inside\)/);
  });
});
