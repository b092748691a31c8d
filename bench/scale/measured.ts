import type { Workflow } from './model';

/**
 * Per-sample figures measured by the benchmarks (nothing here is assumed: assumptions.json holds that).
 *
 * Tokens and calls: `npx tsx bench/recipe/run.ts --tasks tracker_tickets,commit_audit,blame_materiality,people_enrichment,hr_form
 * --samples 60 --model-samples 10 --latency 0` (its "per sample, by kind" table; record+replay with the default batch
 * judge), and the same for commit_audit,blame_materiality with `--judge inline` for replayedInline. Tokens are the
 * scripted server's estimate (characters ÷ 3.6) of the prompts bwa really sent, with Anthropic's prompt caching
 * simulated; people_enrichment has 30 rows, hr_form 12 (so "replayed" averages over 28 and 10 samples).
 *
 * Agent seconds: the same table's s/sample at --latency 0 (the scripted model answers at once), see the dated run in
 * docs/scale.md. Navigations per sample: page loads on the task's busiest host in the record+replay run's action logs (tracker 4103,
 * code host 4104, code host 4104, people search 4106, HR 4107); host intervals: the task specs' rate_limits.
 */
/*
 * JUDGE_OUTPUT: the scripted judge answers every call with the judgments of all 60 samples of its script (its answer
 * is static), so each batch call of 10 measured 6,249 output tokens (commit_audit) and 5,844 (blame_materiality): 6×
 * what a real model writes for the 10 samples it was asked about. The replayed figures below take the answer's size per
 * sample (÷ 60) times the samples judged (50 and 58), spread over the 58 replays, instead of the measured 558.6 and 604.5.
 */
const t = (calls: number, input: number, cacheWrite: number, cacheRead: number, output: number) => ({ calls, input, cacheWrite, cacheRead, output });

export const WORKFLOWS: Workflow[] = [
  {
    task: 'tracker_tickets',
    judged: false,
    modelOnly: t(7.8, 5105, 393, 30253, 422),
    recorded: t(8, 4642, 1965, 29468, 432),
    // 2 of 58 replays (the refs that do not exist) handed their last step to the model.
    replayedBatch: t(0.034, 23.6, 0, 135.5, 2.0),
    agentSecondsModelOnly: 1.5,
    agentSecondsReplay: 2.1,
    navigationsPerSample: 1,
    hostIntervalSeconds: 0.1,
  },
  {
    task: 'commit_audit',
    judged: true,
    modelOnly: t(18.7, 20857, 415, 64802, 1103),
    recorded: t(21, 22603, 2077, 70618, 1209),
    // 8 of 58 commits have no pull request (the model closes those), plus 5 batch-judge calls. Output: see JUDGE_OUTPUT.
    replayedBatch: t(0.22, 518.5, 5.2, 593.9, 19.9 + (50 * 6249) / 60 / 58),
    replayedInline: t(1, 1412.5, 0, 4154, 125.2),
    agentSecondsModelOnly: 4.4,
    agentSecondsReplay: 4.4,
    navigationsPerSample: 2.7,
    hostIntervalSeconds: 0.1,
  },
  {
    task: 'blame_materiality',
    judged: true,
    modelOnly: t(13, 15617, 407, 48469, 786),
    recorded: t(13, 14784, 2037, 46840, 783),
    // 6 batch-judge calls for 58 replays, nothing else. Output: see JUDGE_OUTPUT.
    replayedBatch: t(0.1, 276.6, 5.1, 25.5, (58 * 5844) / 60 / 58),
    replayedInline: t(1, 1497.9, 0, 4073, 118.2),
    agentSecondsModelOnly: 3.4,
    agentSecondsReplay: 3.4,
    navigationsPerSample: 5,
    hostIntervalSeconds: 0.1,
  },
  {
    task: 'people_enrichment',
    judged: false,
    modelOnly: t(6.8, 4766, 397, 26599, 365),
    recorded: t(8, 5188, 1985, 29775, 415),
    // 3 of 28 lookups have no right answer: the model is asked, 2 turns each.
    replayedBatch: t(0.21, 248, 0, 850.7, 18.2),
    agentSecondsModelOnly: 2.5,
    agentSecondsReplay: 2.5,
    navigationsPerSample: 1.9,
    hostIntervalSeconds: 0.5,
  },
  {
    task: 'hr_form',
    judged: false,
    modelOnly: t(32, 27955, 402, 116062, 1551),
    recorded: t(32, 27458, 2008, 114456, 1550),
    replayedBatch: t(0, 0, 0, 0, 0),
    agentSecondsModelOnly: 6,
    agentSecondsReplay: 6,
    navigationsPerSample: 2,
    hostIntervalSeconds: 0,
  },
];

/** bench/throughput (tracker_tickets, 60 samples, local browsers): memory per worker and CPU per sample. */
export const MACHINE = {
  /** Peak PSS of one worker with its Chromium. */
  workerGb: 0.62,
  /** CPU seconds (runner, workers, browsers) per replayed tracker sample, and per model turn on top of it. */
  cpuSecondsPerReplay: 1.2,
  cpuSecondsPerModelTurn: 0.1,
  trackerAgentSecondsReplay: 2.1,
};
