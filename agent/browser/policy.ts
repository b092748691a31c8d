import * as path from 'node:path';
import type { ActionPolicy } from '../actions/core/types';
import type { TaskSpec } from '../task/schema';
import { isUrlAllowed } from './domains';
import { HostRateLimiter } from './rate-limit';
import { FileSlotBook, MemorySlotBook, type SlotBook } from './slot-book';
import type { PlaceholderValues } from '../secrets/placeholders';
import { resolveForSite, type SecretScopes } from '../secrets/scope';
import { settings } from '../settings';

const limiters = new Map<string, HostRateLimiter>();
const processBook = new MemorySlotBook();

/**
 * One limiter per task (its intervals) per run. With a run folder the slots live in a file there, so every
 * worker process of the run shares a host's budget; without one, the samples of this process share it.
 */
function limiterFor(task: TaskSpec, runDir: string | undefined): HostRateLimiter {
  const key = `${task.task_id}\u0000${runDir ?? ''}`;
  let limiter = limiters.get(key);
  if (!limiter) {
    const book: SlotBook = runDir ? new FileSlotBook(path.join(runDir, 'rate-limits')) : processBook;
    limiters.set(key, (limiter = new HostRateLimiter(task.rate_limits, book)));
  }
  return limiter;
}

export interface PolicyOptions {
  tasksDir: string;
  /** The values behind {{secret:NAME}} and {{env:NAME}}. */
  values: PlaceholderValues;
  /** Where each secret the sample may type belongs (task/secret-scope.ts). */
  scopes: SecretScopes;
  /** The run's folder: rate-limit slots are shared through it by every worker of the run. */
  runDir?: string;
}

export function createPolicy(task: TaskSpec, options: PolicyOptions): ActionPolicy & { limiter: HostRateLimiter } {
  const limiter = limiterFor(task, options.runDir);
  return {
    limiter,
    isAllowedUrl: url => isUrlAllowed(url, task.allowed_domains),
    resolvePlaceholders: (text, url) => resolveForSite(text, url, options.values, options.scopes),
    inputDir: path.join(options.tasksDir, 'inputs', task.task_id),
    beforeNavigation: (url, signal) => limiter.wait(url, signal),
    onRateLimited: (url, seconds) => limiter.backOff(url, seconds),
    maxDownloadBytes: settings.maxDownloadBytes,
  };
}
