import * as fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const STALE_AFTER_MS = 30_000;
const WAIT_STEP_MS = 15;

/**
 * A lock file shared by every worker process of a run: created exclusively (O_EXCL), removed after the critical
 * section, and broken when it is older than any critical section can be (a worker killed while holding it).
 */
export async function withFileLock<T>(lockFile: string, timeoutMs: number, body: () => T | Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.writeFileSync(lockFile, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      breakIfStale(lockFile);
      if (Date.now() > deadline) throw new Error(`could not take the lock ${lockFile} within ${timeoutMs} ms`);
      await sleep(WAIT_STEP_MS + Math.random() * WAIT_STEP_MS);
    }
  }
  try {
    return await body();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

function breakIfStale(lockFile: string): void {
  try {
    if (Date.now() - fs.statSync(lockFile).mtimeMs > STALE_AFTER_MS) fs.rmSync(lockFile, { force: true });
  } catch {
    // Released between our attempt and the stat: simply try again.
  }
}
