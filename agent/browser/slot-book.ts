import * as fs from 'node:fs';
import * as path from 'node:path';
import { withFileLock } from '../fs/file-lock';

/** Where the next request to a host may go out, shared by everyone who paces that host. */
export interface SlotBook {
  /** Takes the host's next free slot (epoch ms, never before now); the one after it is `intervalMs` later. */
  reserve(host: string, intervalMs: number): Promise<number>;
  /** Nobody gets a slot before `until` (epoch ms), e.g. after a 429 with Retry-After. */
  holdUntil(host: string, until: number): Promise<void>;
}

/** Slots for the samples of one process. */
export class MemorySlotBook implements SlotBook {
  private readonly next = new Map<string, number>();

  async reserve(host: string, intervalMs: number): Promise<number> {
    const slot = Math.max(Date.now(), this.next.get(host) ?? 0);
    this.next.set(host, slot + intervalMs);
    return slot;
  }

  async holdUntil(host: string, until: number): Promise<void> {
    this.next.set(host, Math.max(this.next.get(host) ?? 0, until));
  }
}

const LOCK_TIMEOUT_MS = 10_000;

/**
 * Slots shared by every worker process of a run: a site limits a session or an address, not one of our
 * workers. One small file per host holds its next free slot, read and advanced under a file lock.
 */
export class FileSlotBook implements SlotBook {
  constructor(private readonly dir: string) {}

  reserve(host: string, intervalMs: number): Promise<number> {
    return this.update(host, next => {
      const slot = Math.max(Date.now(), next);
      return [slot + intervalMs, slot];
    });
  }

  async holdUntil(host: string, until: number): Promise<void> {
    await this.update(host, next => [Math.max(next, until), undefined]);
  }

  private async update<T>(host: string, change: (next: number) => [number, T]): Promise<T> {
    fs.mkdirSync(this.dir, { recursive: true });
    const file = path.join(this.dir, encodeURIComponent(host));
    return withFileLock(`${file}.lock`, LOCK_TIMEOUT_MS, () => {
      const [next, result] = change(readNumber(file));
      fs.writeFileSync(file, String(next));
      return result;
    });
  }
}

/** A missing or half-written file (a killed writer) means "no slot taken yet". */
function readNumber(file: string): number {
  try {
    return Number(fs.readFileSync(file, 'utf8')) || 0;
  } catch {
    return 0;
  }
}
