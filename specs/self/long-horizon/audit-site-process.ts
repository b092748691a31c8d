import { listenSite } from '../../../fixtures/lib/listen';
import { auditSite } from '../../../fixtures/sites/audit/site';

/**
 * Serves the audit site until the process with the given pid (the test runner) is gone. Started detached by a
 * worker, so it outlives that worker: other workers may still be using the site when the first one is done.
 * Usage: node --require tsx/cjs audit-site-process.ts <pid to outlive>
 */
const watched = Number(process.argv[2]);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

listenSite(auditSite, '127.0.0.1').then(
  () => setInterval(() => alive(watched) || process.exit(0), 500),
  error => {
    // Lost a race with another worker's instance: that one serves.
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
