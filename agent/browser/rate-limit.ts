/**
 * Minimum interval between navigations per host, shared by every sample in this worker process.
 * Waits are abortable so a sample's deadline still applies while it queues.
 */
export class HostRateLimiter {
  private readonly nextSlot = new Map<string, number>();

  constructor(private readonly intervals: Readonly<Record<string, number>>) {}

  intervalFor(host: string): number {
    const seconds = this.intervals[host] ?? Object.entries(this.intervals).find(([h]) => host.endsWith(`.${h}`))?.[1] ?? this.intervals.default ?? 0;
    return seconds * 1000;
  }

  async wait(url: string, signal: AbortSignal): Promise<void> {
    const host = new URL(url).host;
    const interval = this.intervalFor(host) || this.intervalFor(new URL(url).hostname);
    if (interval <= 0) return;
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot.get(host) ?? 0);
    this.nextSlot.set(host, slot + interval);
    await sleep(slot - now, signal);
  }

  /** A 429 with Retry-After pushes the host's next slot out for everyone. */
  backOff(url: string, seconds: number): void {
    const host = new URL(url).host;
    this.nextSlot.set(host, Math.max(this.nextSlot.get(host) ?? 0, Date.now() + seconds * 1000));
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
