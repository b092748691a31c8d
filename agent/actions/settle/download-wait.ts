import type { BrowserContext, Download, Page, Response } from '@playwright/test';
import type { Readable } from 'node:stream';
import { ActionError } from '../core/types';

export interface PendingDownload {
  started: Promise<Download>;
  /** The size the response at this URL announced (Content-Length), if one did while the download was awaited. */
  announcedBytes(url: string): number | undefined;
  dispose(): void;
}

/**
 * A download can start in any tab (a link may open a new one first), so every page is watched — for the download,
 * and for the size its response announces (a download over the size cap is cancelled before the browser fetches it).
 */
export function waitForDownload(context: BrowserContext, timeoutMs: number): PendingDownload {
  const watched = new Set<Page>();
  const sizes = new Map<string, number>();
  let onDownload: (download: Download) => void = () => {};
  const onResponse = (response: Response) => {
    const length = Number(response.headers()['content-length']);
    if (Number.isSafeInteger(length) && length >= 0) sizes.set(response.url(), length);
  };
  let timer: NodeJS.Timeout | undefined;
  const watch = (page: Page) => {
    if (watched.has(page)) return;
    watched.add(page);
    page.on('download', onDownload);
    page.on('response', onResponse);
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
    announcedBytes: url => sizes.get(url),
    dispose() {
      clearTimeout(timer);
      context.off('page', watch);
      for (const page of watched) {
        page.off('download', onDownload);
        page.off('response', onResponse);
      }
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
