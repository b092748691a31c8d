import { z } from 'zod';
import { resolveTarget, TargetArg } from './targets/target';
import { defineAction } from './core/types';

export const screenshot = defineAction({
  name: 'screenshot',
  readsOnly: true,
  historyWeight: 1.5,
  collects: true,
  productive: true,
  description: 'Save a screenshot as evidence: the full page, or one element.',
  verifies: 'The image is written and its SHA-256 recorded.',
  schema: z.object({
    label: z.string().min(1).max(60).describe('Filename label'),
    full_page: z.boolean().optional().describe('Default true'),
    target: TargetArg.optional().describe('Only this element'),
  }),
  async handle({ label, full_page, target }, env) {
    const { page, store } = env;
    let bytes: Buffer;
    let element;
    if (target) {
      const resolved = await resolveTarget(target, env);
      bytes = await resolved.locator.screenshot({ animations: 'disabled', timeout: 15_000 });
      element = resolved.element;
    } else {
      bytes = await page.screenshot({ fullPage: full_page ?? true, animations: 'disabled', timeout: 30_000 });
    }
    const artifact = await store.saveScreenshot(bytes, label, page.url());
    return { description: `Screenshot saved: ${artifact.filename}`, element, effects: { artifact } };
  },
});
