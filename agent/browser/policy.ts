import * as path from 'node:path';
import type { ActionPolicy } from '../actions/types';
import type { TaskSpec } from '../task/schema';
import { isUrlAllowed } from './domains';
import { HostRateLimiter } from './rate-limit';
import { makeSecretResolver } from './secrets';

const limiters = new Map<string, HostRateLimiter>();

/** One limiter per task per worker process, so parallel samples in a worker share the host's budget. */
function limiterFor(task: TaskSpec): HostRateLimiter {
  let limiter = limiters.get(task.task_id);
  if (!limiter) limiters.set(task.task_id, (limiter = new HostRateLimiter(task.rate_limits)));
  return limiter;
}

export function createPolicy(task: TaskSpec, options: { tasksDir: string; secrets: Readonly<Record<string, string>> }): ActionPolicy & { limiter: HostRateLimiter } {
  const limiter = limiterFor(task);
  return {
    limiter,
    isAllowedUrl: url => isUrlAllowed(url, task.allowed_domains),
    resolveSecrets: makeSecretResolver(options.secrets),
    inputDir: path.join(options.tasksDir, 'inputs', task.task_id),
    beforeNavigation: (url, signal) => limiter.wait(url, signal),
  };
}
