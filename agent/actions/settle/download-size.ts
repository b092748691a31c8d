import type { Download } from '@playwright/test';
import type { Artifact } from '../../evidence/result-schema';
import type { EvidenceStore } from '../../evidence/store';
import { ActionError } from '../core/types';

/** What the size cap is called where a person can change it. */
const CAP_SETTING = 'AGENT_DOWNLOAD_MAX_MB';

/** Cancels (and forgets) a download whose announced size is over the cap: nothing of it reaches the sample folder. */
export async function refuseAnnouncedOverCap(download: Download, announced: number | undefined, maxBytes: number): Promise<void> {
  if (announced === undefined || announced <= maxBytes) return;
  await download.cancel().catch(() => {});
  await download.delete().catch(() => {});
  throw overCap(download.suggestedFilename(), maxBytes, `its server announced ${announced.toLocaleString('en')} bytes`);
}

/**
 * Streams the download into the evidence store, stopped the moment its bytes pass the cap (a response that
 * announced no size): the store's atomic write leaves no partial file, and the browser's copy is deleted.
 */
export async function saveWithinCap(store: EvidenceStore, download: Download, bytes: AsyncIterable<Uint8Array>, maxBytes: number): Promise<Artifact> {
  const name = download.suggestedFilename();
  let over = false;
  async function* capped(): AsyncIterable<Uint8Array> {
    let seen = 0;
    for await (const chunk of bytes) {
      seen += chunk.byteLength;
      if (seen > maxBytes) {
        over = true;
        throw new Error(`over the size cap of ${maxBytes} bytes`);
      }
      yield chunk;
    }
  }
  try {
    return await store.saveFromStream(capped(), name, download.url());
  } catch (error) {
    if (!over) throw error;
    await download.delete().catch(() => {});
    throw overCap(name, maxBytes, 'its bytes passed it');
  }
}

function overCap(name: string, maxBytes: number, how: string): ActionError {
  return new ActionError(
    `The download of ${JSON.stringify(name)} is larger than the size cap of ${describeBytes(maxBytes)} (${how}) and was stopped; nothing of it was kept — ${CAP_SETTING} raises the cap`,
  );
}

function describeBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes.toLocaleString('en')} bytes`;
}
