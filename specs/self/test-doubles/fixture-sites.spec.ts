import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { z } from 'zod';
import { ensureFixtureSites, type RunningFixtureSites } from '../../../fixtures/serve';
import { SITE } from '../helpers/sites';

// The fixture sites are shared state for every test here: keep this file's tests in one worker, in order.
test.describe.configure({ mode: 'default' });

const PEOPLE = SITE.people;
const WIDGETS = SITE.widgets;
const HAND_PEOPLE = ['ada', 'grace', 'linus', 'margaret', 'alan', 'barbara'];

const PeopleTruth = z.object({
  people: z.record(
    z.string(),
    z.object({
      display_name: z.string().min(1),
      bio: z.string(),
      company: z.string().min(1).nullable(),
      location: z.string().min(1),
      followers: z.number().int().nonnegative(),
      pinned: z.array(z.string().min(1)),
    }),
  ),
  orgs: z.record(z.string(), z.object({ members: z.array(z.string()) })),
});
type PeopleTruth = z.infer<typeof PeopleTruth>;

const WidgetsTruth = z.object({
  cases: z.record(z.string(), z.looseObject({ path: z.string().startsWith('/'), title: z.string(), summary: z.string() })),
});

let sites: RunningFixtureSites | undefined;
let truth: PeopleTruth;

test.beforeAll(async () => {
  sites = await ensureFixtureSites();
  truth = PeopleTruth.parse(await (await fetch(`${PEOPLE}/__truth.json`)).json());
});

test.afterAll(async () => {
  await sites?.close();
});

function acmeMembers(): string[] {
  const acme = truth.orgs.acme;
  if (!acme) throw new Error('truth has no acme org');
  return acme.members;
}

test('people truth: hand-written people, one without company, a 130+ member org, deterministic', async () => {
  for (const username of HAND_PEOPLE) {
    const person = truth.people[username];
    expect(person, username).toBeDefined();
    expect(person?.pinned.length, username).toBeGreaterThanOrEqual(2);
    expect(person?.pinned.length, username).toBeLessThanOrEqual(6);
  }
  expect(truth.people.barbara?.company).toBeNull();
  const members = acmeMembers();
  expect(members.length).toBeGreaterThanOrEqual(130);
  expect(new Set(members).size).toBe(members.length);
  for (const username of members) expect(truth.people[username], username).toBeDefined();
  const again = await (await fetch(`${PEOPLE}/__truth.json`)).json();
  expect(again).toEqual(truth);
});

test('each profile page shows its truth values', async ({ page }) => {
  for (const username of HAND_PEOPLE) {
    const person = truth.people[username]!;
    await page.goto(`${PEOPLE}/people/${username}`);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1 })).toContainText(person.display_name);
    await expect(main.getByText(person.bio)).toBeVisible();
    await expect(main.getByText(person.location, { exact: true })).toBeVisible();
    if (person.company === null) await expect(page.locator('[itemprop=worksFor]')).toHaveCount(0);
    else await expect(main.getByText(person.company, { exact: true })).toBeVisible();
    const exact = person.followers.toLocaleString('en-US');
    await expect(page.locator('.follow-stats [title]').first()).toHaveAttribute('title', exact);
    await main.getByText('Profile stats').click();
    await expect(main.getByRole('group').getByText(`${exact} followers`, { exact: true })).toBeVisible();
    await expect(page.locator('.pinned-item a.repo')).toHaveText(person.pinned);
    await expect(main.getByRole('button', { name: 'Follow' })).toBeVisible();
    await expect(main.getByRole('img', { name: `Avatar of ${person.display_name}` })).toBeVisible();
  }
});

test('large follower counts are abbreviated on the page but exact in the truth', async ({ page }) => {
  await page.goto(`${PEOPLE}/people/linus`);
  await expect(page.getByRole('link', { name: /followers$/ })).toHaveText('248k followers');
  expect(truth.people.linus?.followers).toBe(248301);
});

test('an unknown user is a 404 page', async ({ page }) => {
  const response = await page.goto(`${PEOPLE}/people/no-such-user`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
});

async function memberLogins(page: Page): Promise<string[]> {
  return page.locator('#members > li').evaluateAll(items => items.map(li => (li as HTMLElement).dataset.login ?? ''));
}

test('numbered pagination covers every member exactly once, in order', async ({ page }) => {
  await page.goto(`${PEOPLE}/orgs/acme/members?page=1`);
  const pagination = page.getByRole('navigation', { name: 'Pagination' });
  await expect(pagination.getByRole('link', { name: '6', exact: true })).toBeVisible();
  const seen: string[] = [];
  for (let pageNumber = 1; pageNumber <= 20; pageNumber++) {
    seen.push(...(await memberLogins(page)));
    const next = pagination.getByRole('link', { name: 'Next' });
    if ((await next.count()) === 0) break;
    await next.click();
    await expect(pagination.locator('[aria-current=page]')).toHaveText(String(pageNumber + 1));
  }
  expect(seen).toEqual(acmeMembers());
  await expect(pagination.getByRole('link', { name: 'Previous' })).toBeVisible();
});

test('"Load more" eventually shows every member', async ({ page }) => {
  await page.goto(`${PEOPLE}/orgs/acme/members-more`);
  const button = page.getByRole('button', { name: 'Load more' });
  for (let clicks = 0; clicks < 20 && (await button.count()) > 0; clicks++) {
    const before = await page.locator('#members > li').count();
    await button.click();
    await expect(page.locator('#members > li')).not.toHaveCount(before);
  }
  await expect(page.getByText(`All ${acmeMembers().length} members loaded`)).toBeVisible();
  expect(await memberLogins(page)).toEqual(acmeMembers());
});

test('endless scrolling eventually shows every member', async ({ page }) => {
  await page.goto(`${PEOPLE}/orgs/acme/members-scroll`);
  const end = page.getByText('You’ve reached the end of the list.');
  const items = page.locator('#members > li');
  for (let scrolls = 0; scrolls < 40 && !(await end.isVisible()); scrolls++) {
    const before = await items.count();
    await page.mouse.wheel(0, 4000);
    await expect.poll(async () => (await end.isVisible()) || (await items.count()) > before).toBe(true);
  }
  await expect(end).toBeVisible();
  expect(await memberLogins(page)).toEqual(acmeMembers());
});

test.describe('fault knobs', () => {
  test('500 and 429 (with Retry-After) on any path', async () => {
    for (const base of [PEOPLE, WIDGETS]) {
      const error = await fetch(`${base}/anything/at/all?fault=500`);
      expect(error.status).toBe(500);
      const limited = await fetch(`${base}/people/ada?fault=429`);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('1');
    }
  });

  test('reset destroys the connection without a response', async () => {
    await expect(fetch(`${PEOPLE}/people/ada?fault=reset`)).rejects.toThrow();
    expect((await fetch(`${PEOPLE}/health`)).status).toBe(200);
  });

  test('delay still answers normally; a client giving up on a slow response leaves the server healthy', async () => {
    const delayed = await fetch(`${WIDGETS}/native-select?delay=150`);
    expect(delayed.status).toBe(200);
    expect(await delayed.text()).toContain('Shipping method');
    await expect(fetch(`${PEOPLE}/people/ada?fault=slow`, { signal: AbortSignal.timeout(200) })).rejects.toThrow();
    expect(await (await fetch(`${PEOPLE}/health`)).text()).toBe('ok');
  });

  test('crash serves a page that spins forever; unknown knobs are refused', async () => {
    const crash = await fetch(`${WIDGETS}/?fault=crash`);
    expect(crash.status).toBe(200);
    expect(await crash.text()).toContain('while (true) {}');
    expect((await fetch(`${PEOPLE}/?fault=nope`)).status).toBe(400);
    expect((await fetch(`${PEOPLE}/?delay=soon`)).status).toBe(400);
  });
});

test('widgets: index links every case and every case page loads', async () => {
  const widgets = WidgetsTruth.parse(await (await fetch(`${WIDGETS}/__truth.json`)).json());
  const index = await (await fetch(`${WIDGETS}/`)).text();
  expect(Object.keys(widgets.cases).length).toBeGreaterThanOrEqual(23);
  for (const [slug, entry] of Object.entries(widgets.cases)) {
    expect(index, slug).toContain(`href="${entry.path}"`);
    expect((await fetch(`${WIDGETS}${entry.path}`)).status, slug).toBe(200);
  }
});

test('widgets: the date picker reads back the chosen date', async ({ page }) => {
  await page.goto(`${WIDGETS}/date-picker`);
  await page.getByRole('button', { name: 'Choose date' }).click();
  await expect(page.locator('#month-label')).toHaveText('January 2026');
  await page.getByRole('button', { name: 'Next month' }).click();
  await page.getByRole('button', { name: 'Next month' }).click();
  await page.locator('#calendar').getByRole('button', { name: '15', exact: true }).click();
  await expect(page.locator('#result')).toHaveText('Selected: 2026-03-15');
  await expect(page.getByLabel('Check-in')).toHaveValue('03/15/2026');
});

test('widgets: cascading selects load their options after the previous choice', async ({ page }) => {
  await page.goto(`${WIDGETS}/cascading`);
  await expect(page.getByLabel('State / province')).toBeDisabled();
  await page.getByLabel('Country').selectOption({ label: 'Canada' });
  await expect(page.getByLabel('State / province').locator('option')).toContainText(['Ontario', 'Quebec', 'British Columbia']);
  await page.getByLabel('State / province').selectOption({ label: 'Ontario' });
  await page.getByLabel('City').selectOption({ label: 'Toronto' });
  await expect(page.locator('#result')).toHaveText('Selected: Canada / Ontario / Toronto');
});

test('widgets: the modal blocks the button behind it until closed', async ({ page }) => {
  await page.goto(`${WIDGETS}/modal`);
  const dialog = page.getByRole('dialog', { name: 'We value your privacy' });
  await expect(dialog).toBeVisible();
  const coveredByOverlay = () =>
    page.locator('#continue').evaluate(button => {
      const box = button.getBoundingClientRect();
      const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return top !== button && top?.closest('#cookie-overlay') !== null;
    });
  expect(await coveredByOverlay()).toBe(true);
  await dialog.getByRole('button', { name: 'Accept all' }).click();
  await page.getByRole('button', { name: 'Continue to checkout' }).click();
  await expect(page.locator('#result')).toHaveText('Checkout started');
});

test('widgets: big page buries its needle among more than 10,000 elements', async ({ page }) => {
  await page.goto(`${WIDGETS}/big-page`);
  expect(await page.evaluate(() => document.getElementsByTagName('*').length)).toBeGreaterThanOrEqual(10_000);
  await expect(page.getByRole('heading', { name: 'Quarterly totals' })).toHaveCount(1);
  await expect(page.getByRole('row').filter({ hasText: 'Invoice INV-7731' })).toHaveCount(1);
});

test('widgets: the hostile CSV download arrives intact under a name the browser sanitised', async ({ page }) => {
  const widgets = await (await fetch(`${WIDGETS}/__truth.json`)).json();
  await page.goto(`${WIDGETS}/download`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export contacts (CSV)' }).click()]);
  expect(download.suggestedFilename()).not.toContain('/');
  const saved = await download.path();
  const sha256 = createHash('sha256')
    .update(await readFile(saved))
    .digest('hex');
  expect(sha256).toBe(widgets.cases.download.hostile_csv.sha256);
});

test('widgets: /go-away redirects off-site and /redirect-loop redirects to itself', async () => {
  const away = await fetch(`${WIDGETS}/go-away`, { redirect: 'manual' });
  expect(away.status).toBe(302);
  expect(away.headers.get('location')).toBe('http://evil.example/');
  const loop = await fetch(`${WIDGETS}/redirect-loop`, { redirect: 'manual' });
  expect(loop.headers.get('location')).toBe('/redirect-loop');
});
