import type { SampleUse, Tokens, Workflow } from './model';

/**
 * Per-sample figures measured by the benchmarks (nothing here is assumed: assumptions.json holds that), each with the
 * run it came from. Tokens are the scripted server's estimate (characters ÷ 3.6) of the prompts bwa really sent,
 * with Anthropic's prompt caching simulated; split by the model that bills them (bench/recipe/by-model.ts).
 *
 * NOW: `npx tsx bench/recipe/run.ts --tasks <task> --samples 60 --model-samples 10 --latency 0 --distill on` on this
 * branch rebased on main 371a787 (its "per sample, by kind" tables; run memory on, as bwa runs by default; the 2-core
 * machine shared with other engineers at load average 10–38). people_enrichment has 30 rows, hr_form 12.
 *
 * BEFORE_PERCEPTION: what main 371a787 (and 8b801af) cannot measure. Its recipe compiler no longer records
 * commit_audit and blame_materiality (the binding replay resolves the model's extract ref for commit_sha to another
 * paragraph, so no locator reads the value: all 58 replays end partial_success after a model turn) and compiles an
 * hr_form recipe whose date-picker step names the source hire's month (all 10 replays partial_success, one model turn
 * each); so their replayed tokens come from the same command (without --distill, which replays never call) on this
 * branch at main 7fd44df, before the perception merge, and from the inline-judgment run of that code.
 *
 * HR_REPLAY_SECONDS: the "compiled recipe alone" run of the same invocation (12 hires, every recipe step, no model;
 * it does the whole page work and ends needs_review at the wrongly recorded month): 5.34 s.
 *
 * Three invocations, one per task group: `--tasks commit_audit,blame_materiality` (model-only and recorded),
 * `--tasks people_enrichment,hr_form`, and `--tasks tracker_tickets,hr_form` after the recording fix d2e7ea6 (for the
 * tracker: 56 replays done, the 2 refs that do not exist failed).
 *
 * JUDGE_OUTPUT: the scripted judge answers every call with the judgments of all 60 samples of its script (its answer
 * is static), so each batch call of 10 measured 6,249 output tokens (commit_audit) and 5,844 (blame_materiality): 6×
 * what a real model writes for the 10 samples it was asked about. The replayed figures take the answer's size per
 * sample (÷ 60) times the samples judged (50 and 58), spread over the 58 replays, instead of the measured 558.6 and 604.5.
 *
 * The fast model's output is the scripted server's short default answer (about 40 tokens); a real one writes at most
 * 300 (the distill call's max_tokens): under a cent per thousand samples on claude-haiku-4-5 either way.
 *
 * Agent seconds: the same tables' s/sample (result.json start → finish at --latency 0: the agent's own time), measured
 * on the oversubscribed machine, so upper bounds. Navigations per sample: page loads on the task's busiest host in the
 * record+replay action logs (tracker 4103, code host 4104 twice, people search 4106, HR 4107); host intervals: the task
 * specs' rate_limits.
 */
const t = (calls: number, input: number, cacheWrite: number, cacheRead: number, output: number): Tokens => ({
  calls,
  input,
  cacheWrite,
  cacheRead,
  output,
});
const NONE = t(0, 0, 0, 0, 0);
const use = (main: Tokens, fast: Tokens = NONE): SampleUse => ({ main, fast });

export const WORKFLOWS: Workflow[] = [
  {
    task: 'tracker_tickets',
    judged: false,
    modelOnly: use(t(7.8, 2769.8, 790.8, 26600.6, 420.9), t(1, 593.6, 0, 0, 38)),
    recorded: use(t(8, 2830, 1783.5, 24230.5, 431), t(1, 301, 0, 0, 38)),
    // 2 of 58 replays (the refs that do not exist) hand their last step to the model: one turn each, no fast call.
    replayedBatch: use(t(0.034, 15.55, 13.38, 107.86, 1.97)),
    agentSecondsModelOnly: 4.29,
    agentSecondsReplay: 4.16,
    navigationsPerSample: 1,
    hostIntervalSeconds: 0.1,
  },
  {
    task: 'commit_audit',
    judged: true,
    modelOnly: use(t(16.6, 11120.2, 1228.4, 59946.1, 972.2), t(2.2, 1023, 0, 0, 83.6)),
    recorded: use(t(18.5, 12794, 2460, 61398.5, 1068), t(2.5, 941, 0, 0, 95)),
    // BEFORE_PERCEPTION. 8 of 58 commits have no pull request (the model closes those), plus 5 batch-judge calls. Output: JUDGE_OUTPUT.
    replayedBatch: use(t(0.22, 518.5, 5.2, 593.9, 19.9 + (50 * 6249) / 60 / 58)),
    replayedInline: use(t(1, 1412.5, 0, 4154, 125.2)),
    agentSecondsModelOnly: 14.05,
    agentSecondsReplay: 8.24,
    navigationsPerSample: 2.7,
    hostIntervalSeconds: 0.1,
  },
  {
    task: 'blame_materiality',
    judged: true,
    modelOnly: use(t(12, 10487.9, 895.5, 42044.9, 727.9), t(2, 699.7, 0, 0, 76)),
    recorded: use(t(12, 10617.5, 2105.5, 39573, 724.5), t(2, 651, 0, 0, 76)),
    // BEFORE_PERCEPTION. 6 batch-judge calls for 58 replays, nothing else. Output: JUDGE_OUTPUT.
    replayedBatch: use(t(0.1, 276.6, 5.1, 25.5, (58 * 5844) / 60 / 58)),
    replayedInline: use(t(1, 1497.9, 0, 4073, 118.2)),
    agentSecondsModelOnly: 17.57,
    agentSecondsReplay: 11,
    navigationsPerSample: 5,
    hostIntervalSeconds: 0.1,
  },
  {
    task: 'people_enrichment',
    judged: false,
    modelOnly: use(t(6.8, 3441, 592, 22129, 365), t(0.8, 260, 0, 0, 30)),
    recorded: use(t(8, 4235, 1797, 24323, 415), t(1, 288, 0, 0, 38)),
    // 3 of 28 lookups have no right answer: the model is asked, 2 turns each.
    replayedBatch: use(t(0.21, 133, 35, 705, 18)),
    agentSecondsModelOnly: 5.62,
    agentSecondsReplay: 4.98,
    navigationsPerSample: 1.9,
    hostIntervalSeconds: 0.5,
  },
  {
    task: 'hr_form',
    judged: false,
    modelOnly: use(t(29, 14204, 1934, 110820, 1437), t(4, 2033, 0, 0, 152)),
    recorded: use(t(29, 14178, 2908, 100558, 1436), t(4, 1677, 0, 0, 152)),
    // BEFORE_PERCEPTION: a working recipe replays every hire with no model call. Agent seconds: HR_REPLAY_SECONDS.
    replayedBatch: use(NONE),
    agentSecondsModelOnly: 34.69,
    agentSecondsReplay: 5.34,
    navigationsPerSample: 2,
    hostIntervalSeconds: 0,
  },
];

/**
 * `npx tsx bench/throughput/run.ts --samples 30` (one invocation, 2/4/8 workers, local browsers and a browser server,
 * recipe and scripted model; load average 12–50 on the shared 2-core machine): memory per worker and CPU per sample.
 */
export const MACHINE = {
  /** Peak PSS of one worker with its local Chromium: the largest any local run reached (model, 4 workers: 491 MB). */
  workerGb: 0.48,
  /** With a browser server: peak RSS of one worker's node process (222 MB), and the server's PSS per connected worker at 8 workers (949 MB ÷ 8). */
  workerNodeGb: 0.22,
  serverGbPerWorker: 0.12,
  /**
   * CPU seconds (runner, workers, browsers) per replayed tracker sample (recipe, local, 2 workers: 52.2 s ÷ 30), and per
   * model turn on top of it ((60.1 − 52.2) s ÷ (7.8 turns × 30)).
   */
  cpuSecondsPerReplay: 1.74,
  cpuSecondsPerModelTurn: 0.034,
};
