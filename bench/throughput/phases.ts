import * as fs from 'node:fs';
import * as path from 'node:path';
import { PROJECT_ROOT } from '../../specs/self/helpers/nested-run';

/** Loaded by both configs (bwa's through a wrapper, the plain one directly), so both runs are timed alike. */
export const TIMING_REPORTER = path.join(__dirname, 'timing-reporter.cjs');

interface Timing {
  begin: number;
  end: number;
  tests: Array<{ project: string; title: string; start: number; duration: number; status: string }>;
}

/** Where a run's wall time went, in seconds, from the timing reporter and the process's own start and exit. */
export interface Phases {
  /** Process start → the reporter's onBegin: config, web servers, globalSetup, loading the test files. */
  loadS: number;
  /** onBegin → the first sample test starts: worker start-up, and bwa's setup project. */
  toFirstSampleS: number;
  /** First sample test start → last sample test end. */
  samplesS: number;
  /** Last sample test end → process exit: bwa's judge project, the reporters' onEnd, shutting workers down. */
  afterS: number;
  /** Mean duration of one sample test, fixtures (context, page, trace) included, as Playwright measured it. */
  perTestS: number;
}

export function phasesOf(timingFile: string, spawned: number, exited: number, sampleProject: string | undefined): Phases {
  const timing = JSON.parse(fs.readFileSync(timingFile, 'utf8')) as Timing;
  const samples = timing.tests.filter(t => sampleProject === undefined || t.project === sampleProject);
  const first = Math.min(...samples.map(t => t.start));
  const last = Math.max(...samples.map(t => t.start + t.duration));
  return {
    loadS: (timing.begin - spawned) / 1000,
    toFirstSampleS: (first - timing.begin) / 1000,
    samplesS: (last - first) / 1000,
    afterS: (exited - last) / 1000,
    perTestS: samples.reduce((s, t) => s + t.duration, 0) / samples.length / 1000,
  };
}

/**
 * bwa's own playwright.config.ts with the timing reporter added, written beside it (its relative paths resolve from
 * the project root) and removed by the returned function.
 */
export function writeTimedBwaConfig(): { config: string; remove(): void } {
  const config = path.join(PROJECT_ROOT, `playwright.bench-${process.pid}.config.ts`);
  fs.writeFileSync(
    config,
    [
      "import base from './playwright.config';",
      `export default { ...base, reporter: [...(base.reporter as Array<[string, unknown?]>), [${JSON.stringify(TIMING_REPORTER)}]] };`,
      '',
    ].join('\n'),
  );
  return { config, remove: () => fs.rmSync(config, { force: true }) };
}
