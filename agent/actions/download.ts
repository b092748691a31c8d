import { z } from 'zod';
import { refuseAnnouncedOverCap, saveWithinCap } from './settle/download-size';
import { finishOrCancel, waitForDownload } from './settle/download-wait';
import { DOWNLOAD_TIMEOUT_S, ELEMENT_TIMEOUT_MS, MAX_DOWNLOAD_TIMEOUT_S } from './core/limits';
import { ensurePointerReady } from './targets/preflight';
import { resolveTarget, TargetArg } from './targets/target';
import { defineAction } from './core/types';

/** A click that downloads starts within seconds; the rest of the budget is for the bytes. */
const START_TIMEOUT_MS = 15_000;

export const download = defineAction({
  name: 'download',
  historyWeight: 1.5,
  endsBatch: true,
  productive: true,
  description: 'Click what starts a download; the file is kept as evidence.',
  verifies:
    'The element is not covered or hidden; the click starts a download within 15 s and it finishes within the budget (else it is cancelled) and within the size cap (`AGENT_DOWNLOAD_MAX_MB`: else it is stopped and nothing of it kept); the file is written and its SHA-256 recorded.',
  schema: z.object({
    target: TargetArg,
    timeout_seconds: z.number().int().min(1).max(MAX_DOWNLOAD_TIMEOUT_S).optional().describe(`Default ${DOWNLOAD_TIMEOUT_S}`),
  }),
  // Room to find and click the element before the download's own budget starts.
  timeoutFor: ({ timeout_seconds }) => (timeout_seconds ?? DOWNLOAD_TIMEOUT_S) * 1000 + 2 * ELEMENT_TIMEOUT_MS,
  async handle({ target, timeout_seconds }, env) {
    const resolved = await resolveTarget(target, env);
    const budgetSeconds = timeout_seconds ?? DOWNLOAD_TIMEOUT_S;
    const timeoutMs = budgetSeconds * 1000;
    const deadline = Date.now() + timeoutMs;
    const pending = waitForDownload(env.context, Math.min(timeoutMs, START_TIMEOUT_MS));
    try {
      await ensurePointerReady(resolved.locator, resolved.label, 'click');
      await resolved.locator.click({ timeout: ELEMENT_TIMEOUT_MS });
      const started = await pending.started;
      const maxBytes = env.policy.maxDownloadBytes;
      await refuseAnnouncedOverCap(started, pending.announcedBytes(started.url()), maxBytes);
      const bytes = await finishOrCancel(started, deadline - Date.now(), budgetSeconds);
      const artifact = await saveWithinCap(env.store, started, bytes, maxBytes);
      await started.delete().catch(() => {});
      return {
        description: `Downloaded ${artifact.filename} (${artifact.bytes} bytes, sha256 ${artifact.sha256.slice(0, 12)}…) via ${resolved.label}`,
        element: resolved.element,
        effects: { artifact },
      };
    } finally {
      pending.dispose();
    }
  },
});
