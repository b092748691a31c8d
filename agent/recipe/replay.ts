import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Decider } from '../decide/types';
import type { ActionLogEntry, Result } from '../evidence/result-schema';
import { authStatePath } from '../task/auth-profile';
import type { SampleSlot } from '../loop/types';
import type { LoadedTask } from '../task/load-task';
import type { Sample } from '../task/samples';
import type { SourceRun } from './draft';
import { installEvaluateShim } from '../browser/evaluate-shim';

/** What a replay asks of a sample session: the options it is prepared with… */
export type ReplayOptions = SampleSlot & {
  deciderMode: 'recipe';
  decider: NonNullable<SampleSlot['decider']>;
  dir: string;
  learn: false;
};

/** …and what it uses of the prepared session. */
export interface ReplaySession {
  readonly recorder: { readonly log: readonly ActionLogEntry[] };
  run(): Promise<Result>;
}

/** SampleSession.prepare, passed in by the caller: recipe code runs samples without importing the session. */
export type PrepareSession = (options: ReplayOptions) => Promise<ReplaySession>;

export interface ReplayEnv {
  browser: Browser;
  prepare: PrepareSession;
  task: LoadedTask;
  /** The run the replays belong to (rate limits are shared with it); their evidence goes to a temp folder. */
  runId: string;
}

export interface Replayed {
  result: Result;
  log: ActionLogEntry[];
}

const CONTEXT: BrowserContextOptions = { viewport: { width: 1280, height: 900 }, colorScheme: 'light', acceptDownloads: true };

/** One sample through the real loop (actions, evidence, requirements) with the given decider, in a fresh context. */
export async function replaySample(env: ReplayEnv, sample: Sample, decider: (activePage: () => Page) => Decider): Promise<Replayed> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bwa-recipe-replay-'));
  const profile = env.task.spec.auth_profile;
  const storageState = profile && fs.existsSync(authStatePath(profile)) ? authStatePath(profile) : undefined;
  const context = await env.browser.newContext({ ...CONTEXT, storageState });
  try {
    await installEvaluateShim(context);
    const page = await context.newPage();
    const session = await env.prepare({
      task: env.task,
      sample,
      context,
      page,
      runId: env.runId,
      attempt: 0,
      deciderMode: 'recipe',
      decider,
      dir,
      learn: false,
    });
    const result = await session.run();
    return { result, log: [...session.recorder.log] };
  } finally {
    await context.close().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function sampleOfSource(source: SourceRun): Sample {
  return { sample_id: source.sampleId, row: source.row, line: 0, source: `run ${source.runId}` };
}
