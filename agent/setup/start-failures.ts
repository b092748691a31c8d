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
  /** Set once a try succeeded, for streaks that a single success ends for good. */
  succeeded?: boolean;
}

/**
 * Samples in a row that could not start their work, counted across every worker of one invocation in a locked
 * file of the run folder. At `limit` the rest are not started. The count belongs to one invocation, so resuming
 * the run later (same AGENT_RUN_ID) tries again.
 */
class FailureStreak {
  constructor(
    readonly file: string,
    private readonly invocation: string,
    private readonly limit: number,
    /** After one success, failures no longer count (a setting the API once accepted is not what is wrong). */
    private readonly endsAtFirstSuccess = false,
  ) {}

  reached(): Streak | undefined {
    const streak = this.read();
    if (!streak || streak.consecutive < this.limit || (this.endsAtFirstSuccess && streak.succeeded)) return undefined;
    return streak;
  }

  async record(ok: boolean, error = ''): Promise<void> {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    await withFileLock(`${this.file}.lock`, 10_000, () => {
      const before = this.read();
      const streak: Streak = {
        invocation: this.invocation,
        consecutive: ok ? 0 : (before?.consecutive ?? 0) + 1,
        last_error: ok ? '' : (error.split('\n')[0] ?? ''),
        ...(ok || before?.succeeded ? { succeeded: true } : {}),
      };
      writeJsonAtomic(this.file, streak);
    });
  }

  private read(): Streak | undefined {
    const streak = readJsonIfExists(this.file) as Streak | undefined;
    return streak && streak.invocation === this.invocation ? streak : undefined;
  }
}

/**
 * Counts, per task, the samples in a row whose start page could not be reached. At `limit` the task's site is
 * taken for dead: its remaining samples fail at once.
 */
export class StartFailures {
  private readonly streak: FailureStreak;

  constructor(
    runDir: string,
    private readonly taskId: string,
    invocation: string,
    limit: number,
  ) {
    this.streak = new FailureStreak(path.join(runDir, START_FAILURES_DIR, `${taskId}.json`), invocation, limit);
  }

  blocked(): string | undefined {
    const streak = this.streak.reached();
    if (!streak) return undefined;
    return `stopped early: the start page of task ${this.taskId} could not be reached for ${streak.consecutive} samples in a row (last: ${streak.last_error}) — its remaining samples were not started; bring the site back and resume with the same AGENT_RUN_ID`;
  }

  record(reached: boolean, error = ''): Promise<void> {
    return this.streak.record(reached, error);
  }
}

/** File and invocation this worker has already marked as accepted: one write per worker, not one per sample. */
const acceptedHere = new Set<string>();

/**
 * The model configuration, for the whole run: when the API refuses the first request of the run (400
 * invalid_request_error, 401, 403, 404) the setting is wrong for every sample, so no other model-decided sample is
 * started — each is recorded as not started, with the API's answer. Once the API has accepted a request of this
 * invocation, a later refusal is that request's problem, not the configuration's.
 */
export class ModelRejections {
  private readonly streak: FailureStreak;
  private readonly key: string;

  constructor(runDir: string, invocation: string) {
    // A task id never starts with "_": the file cannot be a task's.
    this.streak = new FailureStreak(path.join(runDir, START_FAILURES_DIR, '_model.json'), invocation, 1, true);
    this.key = `${this.streak.file}\u0000${invocation}`;
  }

  blocked(): string | undefined {
    const streak = this.streak.reached();
    if (!streak) return undefined;
    return `not started: the API rejected the model configuration on the first request of this run (${streak.last_error}) — the remaining model-decided samples were not started; change the setting named and resume with the same AGENT_RUN_ID`;
  }

  async record(rejection: string | undefined): Promise<void> {
    if (!rejection && acceptedHere.has(this.key)) return;
    await this.streak.record(!rejection, rejection);
    if (!rejection) acceptedHere.add(this.key);
  }
}
