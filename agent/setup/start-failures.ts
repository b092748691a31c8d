import * as fs from 'node:fs';
import * as path from 'node:path';
import { readJsonIfExists, writeJsonAtomic } from '../fs/atomic';
import { withFileLock } from '../fs/file-lock';

/** Run-folder state shared by every worker (and skipped by `bwa verify`, like rate-limits/). */
export const START_FAILURES_DIR = 'start-failures';

interface Streak {
  invocation: string;
  consecutive: number;
  last_error: string;
}

/**
 * Counts, per task, the samples in a row whose start page could not be reached. At `limit` the task's site is
 * taken for dead: its remaining samples fail at once. The count belongs to one invocation, so resuming the run
 * later (same AGENT_RUN_ID) tries the site again.
 */
export class StartFailures {
  private readonly file: string;

  constructor(
    runDir: string,
    private readonly taskId: string,
    private readonly invocation: string,
    private readonly limit: number,
  ) {
    this.file = path.join(runDir, START_FAILURES_DIR, `${taskId}.json`);
  }

  blocked(): string | undefined {
    const streak = this.read();
    if (!streak || streak.consecutive < this.limit) return undefined;
    return `stopped early: the start page of task ${this.taskId} could not be reached for ${streak.consecutive} samples in a row (last: ${streak.last_error}) — its remaining samples were not started; bring the site back and resume with the same AGENT_RUN_ID`;
  }

  async record(reached: boolean, error = ''): Promise<void> {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    await withFileLock(`${this.file}.lock`, 10_000, () => {
      const before = this.read()?.consecutive ?? 0;
      const streak: Streak = {
        invocation: this.invocation,
        consecutive: reached ? 0 : before + 1,
        last_error: reached ? '' : (error.split('\n')[0] ?? ''),
      };
      writeJsonAtomic(this.file, streak);
    });
  }

  private read(): Streak | undefined {
    const streak = readJsonIfExists(this.file) as Streak | undefined;
    return streak && streak.invocation === this.invocation ? streak : undefined;
  }
}
