import { z } from 'zod';
import { waitForQuietNetwork } from './settle/quiet-network';
import { resolveTarget, TargetArg } from './targets/target';
import { ActionError, defineAction } from './core/types';

const MAX_WAIT_S = 30;

export const wait = defineAction({
  name: 'wait',
  readsOnly: true,
  historyWeight: 0.5,
  replay: 'optional',
  onlyWaits: true,
  description: 'Wait until an element or text is visible, the network is idle, or some seconds pass.',
  verifies: 'The element or text became visible in time (a busy network is reported, not a failure).',
  schema: z.object({
    target: TargetArg.optional(),
    text: z.string().optional().describe('Until this text shows'),
    network_idle: z.boolean().optional().describe('Until no request runs'),
    seconds: z.number().min(0).max(MAX_WAIT_S).optional().describe(`Timeout, or the pause alone (max ${MAX_WAIT_S})`),
  }),
  async handle({ target, text, network_idle, seconds }, env) {
    const timeout = Math.min(seconds ?? 10, MAX_WAIT_S) * 1000;
    const { page } = env;
    try {
      if (target) {
        const deadline = Date.now() + timeout;
        for (;;) {
          try {
            const resolved = await resolveTarget(target, env);
            await resolved.locator.first().waitFor({ state: 'visible', timeout: Math.max(1, deadline - Date.now()) });
            return { description: `${resolved.label} is visible`, element: resolved.element };
          } catch (error) {
            if (Date.now() >= deadline) throw error;
            await page.waitForTimeout(250);
          }
        }
      }
      if (text) {
        await page.getByText(text).first().waitFor({ state: 'visible', timeout });
        return { description: `Text ${JSON.stringify(text)} is visible` };
      }
      if (network_idle) {
        // A page that polls is never quiet; that is its normal state, not a failure of the wait.
        const quiet = await waitForQuietNetwork(page, timeout).then(
          () => true,
          () => false,
        );
        return {
          description: quiet ? 'Network is idle' : `The network was still busy after ${timeout / 1000}s (the page keeps polling); carrying on`,
        };
      }
      await page.waitForTimeout(timeout);
      return { description: `Waited ${timeout / 1000}s` };
    } catch (error) {
      if (error instanceof ActionError) throw error;
      throw new ActionError(
        `Still not there after ${timeout / 1000}s — the page may need another action first (scroll, click a tab) or it has no such content`,
      );
    }
  },
});
