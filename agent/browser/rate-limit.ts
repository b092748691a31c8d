import { MemorySlotBook, type SlotBook } from './slot-book';
import { setTimeout as sleep } from 'node:timers/promises';
import { withoutFragment } from './page-url';

/** A slot taken by wait() and not yet used by the navigation it was taken for. */
const PASS_TTL_MS = 30_000;

/**
 * Minimum interval between navigations per host, shared through a SlotBook (every sample of the run, in every
 * worker, when the book is a file). goto waits before it asks the browser (so the sample's deadline applies);
 * every other navigation — a link, a form, a script — waits in the context route (pace).
 */
export class HostRateLimiter {
  private readonly passes = new Map<string, number[]>();
  private readonly heldHosts = new Set<string>();

  constructor(
    private readonly intervals: Readonly<Record<string, number>>,
    private readonly book: SlotBook = new MemorySlotBook(),
  ) {}

  intervalFor(host: string): number {
    const seconds = this.intervals[host] ?? Object.entries(this.intervals).find(([h]) => host.endsWith(`.${h}`))?.[1] ?? this.intervals.default ?? 0;
    return seconds * 1000;
  }

  /** Waits for the host's next slot; the navigation to `url` that follows is not paced again. */
  async wait(url: string, signal: AbortSignal): Promise<void> {
    if (await this.waitForSlot(url, signal)) this.addPass(url);
  }

  /**
   * For a navigation about to leave the browser: uses the pass of an earlier wait(), else waits for a slot. A pass
   * older than half the host's interval is not used: slots are kept by time, so a request that leaves that late
   * (a busy machine starting five tabs at once) could land next to the ones paced after it — a loaded suite saw a
   * 429 from a site whose limit is twice the task's pace. It takes a fresh slot instead.
   */
  async pace(url: string, signal?: AbortSignal): Promise<void> {
    if (this.takePass(url, this.intervalOf(new URL(url)) / 2)) return;
    await this.waitForSlot(url, signal);
  }

  /** A 429 with Retry-After pushes the host's next slot out for everyone sharing the book. */
  async backOff(url: string, seconds: number): Promise<void> {
    const host = new URL(url).host;
    // A host without an interval is paced from now on too, so the hold is honoured.
    this.heldHosts.add(host);
    await this.book.holdUntil(host, Date.now() + seconds * 1000);
  }

  private intervalOf(url: URL): number {
    return this.intervalFor(url.host) || this.intervalFor(url.hostname);
  }

  private async waitForSlot(url: string, signal?: AbortSignal): Promise<boolean> {
    const parsed = new URL(url);
    const interval = this.intervalOf(parsed);
    if (interval <= 0 && !this.heldHosts.has(parsed.host)) return false;
    const slot = await this.book.reserve(parsed.host, interval);
    await sleep(slot - Date.now(), undefined, { signal });
    return true;
  }

  private addPass(url: string): void {
    const key = withoutFragment(url);
    const now = Date.now();
    this.passes.set(key, [...(this.passes.get(key) ?? []).filter(at => now - at < PASS_TTL_MS), now]);
  }

  private takePass(url: string, maxAgeMs: number): boolean {
    const key = withoutFragment(url);
    const now = Date.now();
    const fresh = (this.passes.get(key) ?? []).filter(at => now - at < PASS_TTL_MS);
    const pass = fresh.shift();
    const taken = pass !== undefined && now - pass <= maxAgeMs;
    if (fresh.length) this.passes.set(key, fresh);
    else this.passes.delete(key);
    return taken;
  }
}
