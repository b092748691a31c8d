import { errors, type Page } from '@playwright/test';
import { z } from 'zod';
import { resolveTarget, TargetArg } from './targets/target';
import { SHOT_TIMEOUTS } from './core/limits';
import { defineAction } from './core/types';

/** A full-page shot covers the page as wide as the window and at most this high: a page of any size is saved in seconds. */
export const FULL_PAGE_MAX_HEIGHT = 8_000;

type PageShotTimeouts = Pick<typeof SHOT_TIMEOUTS, 'fullPageMs' | 'viewportMs'>;

export const screenshot = defineAction({
  name: 'screenshot',
  readsOnly: true,
  independent: true,
  historyWeight: 1.5,
  collects: true,
  productive: true,
  description: 'Save a screenshot as evidence: the full page, or one element.',
  verifies: `The image is written and its SHA-256 recorded. A full page is the window's width and at most ${FULL_PAGE_MAX_HEIGHT.toLocaleString('en')} px high; a larger page, or one that takes over ${SHOT_TIMEOUTS.fullPageMs / 1000} s (then the window alone is saved), is said in the artifact's note. A model's next step shows it, unless the task requires that label as evidence, within one decision's image: a page larger than the window is shown as the window.`,
  schema: z.object({
    label: z.string().min(1).max(60).describe('Filename label'),
    full_page: z.boolean().optional().describe('Default true'),
    target: TargetArg.optional().describe('Only this element'),
  }),
  async handle({ label, full_page, target }, env) {
    const { page, store } = env;
    if (target) {
      const resolved = await resolveTarget(target, env);
      const bytes = await resolved.locator.screenshot({ animations: 'disabled', timeout: SHOT_TIMEOUTS.elementMs });
      const artifact = await store.saveScreenshot(bytes, label, page.url());
      return { description: `Screenshot saved: ${artifact.filename}`, element: resolved.element, effects: { artifact } };
    }
    const shot = full_page === false ? { bytes: await viewportShot(page) } : await fullPageShot(page);
    const artifact = await store.saveScreenshot(shot.bytes, label, page.url(), shot.note);
    return { description: `Screenshot saved: ${artifact.filename}${shot.note ? ` (${shot.note})` : ''}`, effects: { artifact } };
  },
});

function viewportShot(page: Page, timeouts: PageShotTimeouts = SHOT_TIMEOUTS): Promise<Buffer> {
  return page.screenshot({ animations: 'disabled', timeout: timeouts.viewportMs });
}

/** The page from its top, cut to the window's width and the height cap; the window alone when even that takes too long. */
export async function fullPageShot(page: Page, timeouts: PageShotTimeouts = SHOT_TIMEOUTS): Promise<{ bytes: Buffer; note?: string }> {
  const size = await page.evaluate(() => ({
    width: Math.max(document.documentElement.scrollWidth, document.body?.scrollWidth ?? 0),
    height: Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
  }));
  const viewport = page.viewportSize() ?? { width: size.width, height: size.height };
  const clip = { x: 0, y: 0, width: Math.min(size.width, viewport.width), height: Math.min(size.height, FULL_PAGE_MAX_HEIGHT) };
  try {
    const bytes = await page.screenshot({ fullPage: true, clip, animations: 'disabled', timeout: timeouts.fullPageMs });
    return { bytes, note: cutNote(size, clip) };
  } catch (error) {
    if (!(error instanceof errors.TimeoutError)) throw error;
    const bytes = await viewportShot(page, timeouts);
    return { bytes, note: `the window only: the full page (${px(size.width)} × ${px(size.height)} px) took over ${timeouts.fullPageMs / 1000} s` };
  }
}

function cutNote(page: { width: number; height: number }, clip: { width: number; height: number }): string | undefined {
  const cuts = [
    page.height > clip.height ? `the top ${px(clip.height)} px of a page ${px(page.height)} px high (the full-page cap)` : undefined,
    page.width > clip.width ? `${px(clip.width)} px of its ${px(page.width)} px width (the window's)` : undefined,
  ].filter(Boolean);
  return cuts.length ? cuts.join('; ') : undefined;
}

const px = (n: number) => Math.round(n).toLocaleString('en');
