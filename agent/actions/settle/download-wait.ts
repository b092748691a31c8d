import type { BrowserContext, Download, Page } from '@playwright/test';
import type { Readable } from 'node:stream';
import { ActionError } from '../core/types';

export interface PendingDownload {
  started: Promise<Download>;
  dispose(): void;
}

/** A download can start in any tab (a link may open a new one first), so every page is watched. */
export function waitForDownload(context: BrowserContext, timeoutMs: number): PendingDownload {
  const watched = new Set<Page>();
  let onDownload: (download: Download) => void = () => {};
  let timer: NodeJS.Timeout | undefined;
  const watch = (page: Page) => {
    if (watched.has(page)) return;
    watched.add(page);
    page.on('download', onDownload);
  };
  const started = new Promise<Download>((resolve, reject) => {
    onDownload = resolve;
    timer = setTimeout(
      () =>
        reject(
          new ActionError(
            `No download started within ${Math.round(timeoutMs / 1000)}s of the click — check that this element really downloads a file`,
          ),
        ),
      timeoutMs,
    );
  });
  started.catch(() => {});
  context.pages().forEach(watch);
  context.on('page', watch);
  return {
    started,
    dispose() {
      clearTimeout(timer);
      context.off('page', watch);
      for (const page of watched) page.off('download', onDownload);
    },
  };
}

/**
 * The finished download's bytes, or a clean failure: a download that never completes is cancelled at the deadline.
 * A stream, not `download.path()`: a browser on a browser server (AGENT_BROWSER_WS) keeps its file on that machine.
 */
export async function finishOrCancel(download: Download, timeoutMs: number, budgetSeconds: number): Promise<Readable> {
  let timer: NodeJS.Timeout | undefined;
  const name = download.suggestedFilename();
  const deadline = new Promise<'timeout'>(resolve => {
    timer = setTimeout(() => resolve('timeout'), Math.max(0, timeoutMs));
  });
  try {
    const outcome = await Promise.race([
      download.createReadStream().then(
        stream => ({ stream }),
        (error: unknown) => ({ error }),
      ),
      deadline,
    ]);
    if (outcome === 'timeout') {
      await download.cancel().catch(() => {});
      throw new ActionError(
        `The download of ${JSON.stringify(name)} did not finish within ${budgetSeconds}s and was cancelled — the server may be stalled; try again later`,
        true,
      );
    }
    if ('error' in outcome)
      throw new ActionError(`The download of ${JSON.stringify(name)} failed: ${(await download.failure()) ?? String(outcome.error)}`, true);
    return outcome.stream;
  } finally {
    clearTimeout(timer);
  }
}
