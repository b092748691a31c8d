import { DEFAULT_FAST_MODEL, DEFAULT_MODEL, EFFORT_LEVELS } from '../decide/model-capabilities';
import { budgetRule } from '../snapshot/tokens';
import { SECRET_ENV_PREFIX, SETTING_ENV_PREFIX } from '../secrets/placeholders';
import { address, folder, jsonTextRecord, oneOf, oneOfOrUnset, onOff, someOf, text, wholeNumber, type EnvVariable } from './kinds';

/**
 * Every environment variable bwa reads, each with the schema its text is checked against and what it means.
 * Nothing else reads the environment (agent/env/read.ts is the one reader); docs/environment.md is generated from
 * this file (`npm run env:doc`).
 */

export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

const RUN = {
  AGENT_DECIDER: oneOf(['auto', 'model', 'recipe'], 'auto', {
    description:
      "`auto`: a recipe replays — a fresh compiled one (`tasks/recipes/<task_id>.json`), else the spec's own — and with a key the model repairs a step that fails (self-heal); a task with no recipe is decided by the model (a key is needed). `model`: always the model, never a recipe. `recipe`: a recipe only, never a model call (a failed step → `needs_review` naming it)",
  }),
  AGENT_RECORD: onOff(false, {
    description:
      'on: once `AGENT_RECORD_SAMPLES` model-decided samples of a task are done, they are compiled into `tasks/recipes/<task_id>.json` during the run (later samples of `auto` runs replay it)',
  }),
  AGENT_RECORD_SAMPLES: wholeNumber(
    { min: 1, max: 10, fallback: 2 },
    { description: 'how many done model samples a recorded recipe is compiled over' },
  ),
  AGENT_JUDGE: oneOf(['inline', 'batch'], 'inline', {
    description:
      '`inline`: each sample asks the model for its judgment; `batch`: replayed samples leave it to the `judge` project, which judges `AGENT_JUDGE_BATCH` samples per model call after the run',
  }),
  AGENT_JUDGE_BATCH: wholeNumber({ min: 1, max: 50, fallback: 10 }, { description: 'samples per batch judgment call' }),
  AGENT_MEMORY_DISTILL: onOff(true, { description: "off: run memory learns the efficient route as it is, without the fast model's wording" }),
  AGENT_RUN_ID: text(undefined, {
    takes: 'a name safe as a folder name: up to 100 letters, digits, ".", "_" and "-", starting with a letter or digit',
    pattern: RUN_ID_PATTERN,
    fallbackText: 'new per invocation',
    description: 'names `reports/runs/<id>/`; reuse it to resume (set once by `playwright.config.ts` in the main process; workers inherit it)',
  }),
  AGENT_RESUME_CHANGED: oneOf(['rerun', 'keep'], 'rerun', {
    description:
      "on a resume, a sample done under an earlier version of its task (its spec, its own recipe, or the sample's row): `rerun` runs it again; `keep` keeps it, and the run names its combined.csv as mixing versions ([evidence.md](evidence.md#resuming))",
  }),
  AGENT_URL: address(['http', 'https'], undefined, {
    description:
      'run one ad-hoc sample with this URL instead of the CSV (only for tasks whose `start_url` has `{{url}}`; for another task it is an error naming it)',
  }),
  AGENT_FAIL_ON: someOf(['needs_review', 'partial_success'], {
    description: "statuses that fail their test besides `failed`, so a CI job's exit code follows them. Unset: they pass, labelled in every report",
  }),
  AGENT_STOP_AFTER: wholeNumber(
    { min: 1, max: 1000, fallback: 3 },
    {
      description:
        'after this many samples of one task in a row could not reach their start page (connection refused, timeout, DNS), the task\'s other samples fail at once ("stopped early"); a later run with the same `AGENT_RUN_ID` tries them again. (A model configuration the API refuses on the run\'s first request — 400, 401, 403, 404 — stops the other model-decided samples at once: see [model.md](model.md#a-refused-configuration))',
    },
  ),
  AGENT_DISCOVER_MAX_ITEMS: wholeNumber(
    { min: 1, fallback: undefined, fallbackText: "the task's `discover.max_items`" },
    { description: 'lower cap on discovered samples (try a listing task on a few items first)' },
  ),
  AGENT_TRACE: oneOf(['on', 'off', 'retain-on-failure'], 'retain-on-failure', {
    description:
      '`on` records a trace for every sample (audit runs); `off` records none (large runs: a trace is recorded, at a CPU cost on every action, even when a passing sample throws it away)',
  }),
  AGENT_DOWNLOAD_MAX_MB: wholeNumber(
    { min: 1, fallback: 100 },
    {
      description:
        'the largest file the `download` action keeps, in MiB: a download whose response announces more is cancelled as it starts; one that announces no size is stopped when its bytes pass the cap, and nothing of it is left in the sample folder (the step fails, naming the cap and this variable)',
    },
  ),
  AGENT_RETRIES: wholeNumber(
    { min: 0, fallback: 1 },
    {
      description:
        'Playwright retries for failed samples (not for a failure known before the sample starts: a task that cannot load, its server or sign-in not ready, no key and no recipe)',
    },
  ),
  AGENT_WORKERS: wholeNumber(
    { min: 1, fallback: undefined, fallbackText: 'half the cores, at least 2' },
    { description: "parallel workers (Playwright's `--workers` overrides it)" },
  ),
};

const MODEL = {
  ANTHROPIC_API_KEY: text(undefined, { takes: 'an Anthropic API key', sensitive: true, description: 'enables the model decider (Claude)' }),
  ANTHROPIC_BASE_URL: address(['http', 'https'], 'https://api.anthropic.com', {
    description:
      'where the model requests go (a proxy or gateway; tests point it at `fixtures/model-server`); `npx bwa check` proves the setup with one request',
  }),
  AGENT_MODEL: text(DEFAULT_MODEL, {
    takes: 'a model id',
    description:
      'the model that decides each step (looking at the screenshot a step carries), judges and plans; its requests follow its rules in the capability table ([model.md](model.md#which-models)); an id the table does not hold gets the strictest rules and one warning line at the start of the run',
  }),
  AGENT_FAST_MODEL: text(DEFAULT_FAST_MODEL, {
    takes: 'a model id',
    description: 'step summaries and run-memory distillation (at effort `low`): the cheapest current model',
  }),
  AGENT_EFFORT: oneOfOrUnset(EFFORT_LEVELS, {
    fallbackText: '`medium`',
    description:
      "`output_config.effort` of `AGENT_MODEL`'s calls, and only a level that model takes (all five on the current models; no `xhigh` on claude-sonnet-4-6; none on claude-haiku-4-5): another stops the run at its start, naming the levels. A fallback model that takes another set gets its own default; a model bwa does not know gets it only when set. Thinking is billed as output: see [model.md](model.md#effort)",
  }),
  AGENT_FALLBACK_MODEL: text(undefined, {
    takes: 'a model id',
    description:
      "one attempt on this model when the primary still fails after the SDK's retries (also used for the final consolidation after a primary failure); the switch is noted in `result.json`",
  }),
  AGENT_MODEL_RETRIES: wholeNumber({ min: 0, fallback: 3 }, { description: "the SDK's retries per model call (it honours `retry-after`)" }),
  AGENT_MODEL_TIMEOUT_MS: wholeNumber({ min: 1, fallback: 120_000 }, { description: 'per model call, in milliseconds' }),
  AGENT_MAX_TOKENS: wholeNumber(
    { min: 1, fallback: 2048 },
    {
      description:
        "room for a decision's answer (its tool calls); on a model that thinks, `max_tokens` adds room for the thinking (2,048 at effort low, 4,096 medium, 8,192 high, 16,384 xhigh/max), capped at 21,333 (non-streaming). A turn cut at `max_tokens` before any tool call is asked again once with twice the room",
    },
  ),
  AGENT_CONTEXT_WINDOW: wholeNumber(
    { min: 1, fallback: undefined, fallbackText: "the model's (1,000,000 for the current models)" },
    { description: `sets the prompt budget: ${budgetRule()}` },
  ),
  AGENT_SNAPSHOT_TOKENS: wholeNumber(
    { min: 200, max: 200_000, fallback: undefined, fallbackText: 'from the budget' },
    { description: "the page state's token budget, never exceeded; see [page-state.md](page-state.md)" },
  ),
  AGENT_REFLECTION: oneOf(['light', 'full'], 'light', {
    description:
      '`light`: optional `next_goal` on each tool call; `full`: `evaluation_previous_step`, `memory_update`, `next_goal` required, and shown in the history',
  }),
  AGENT_MULTI_ACTIONS: onOff(true, {
    description:
      'the model may return up to `AGENT_MAX_ACTIONS_PER_STEP` independent actions in one turn (several fields of a form, a screenshot and its reads), each logged as a sub-step; the rest of a batch is not run after a failure, a navigation, a >20% change in interactive elements, a download or a save_progress, and the model is told so. off: one action per turn (`tool_choice.disable_parallel_tool_use`)',
  }),
  AGENT_MAX_ACTIONS_PER_STEP: wholeNumber(
    { min: 1, max: 3, fallback: 3 },
    { description: 'the most actions one turn may hold; calls past it are not run, and the model is told which' },
  ),
};

const BROWSER = {
  AGENT_CHROMIUM_PATH: text(undefined, {
    takes: 'the path of a Chromium binary',
    fallbackText: "the browser your Playwright config names, else Playwright's installed Chromium, else `/usr/bin/chromium`",
    description:
      "a Chromium binary for bwa's samples and tools where your Playwright config names no browser (no `channel`, `launchOptions.executablePath` or `connectOptions`); it takes precedence over Playwright's installed Chromium",
  }),
  AGENT_BROWSER_WS: address(['ws', 'wss', 'http', 'https'], undefined, {
    takes: 'the ws:// (or wss://, http://, https://) address a Playwright browser server printed',
    example: 'ws://10.0.0.5:3000/<path> (`bwa browser-server` prints it)',
    sensitive: true,
    description:
      "every sample's browser comes from this Playwright browser server (`npx bwa browser-server` prints it) through Playwright's `connectOptions`; checked once before any sample starts ([ci.md](ci.md))",
  }),
  AGENT_BROWSER_WS_HEADERS: jsonTextRecord({
    takes: 'a JSON object of header name → text',
    example: '{"Authorization":"Bearer <token>"}',
    sensitive: true,
    description: 'headers for that connection',
  }),
};

const FOLDERS = {
  AGENT_PROJECT_DIR: text(undefined, {
    takes: 'an absolute folder',
    pattern: /^(\/|[A-Za-z]:[\\/])/,
    fallbackText: 'the working directory',
    description:
      "the user's project: the folder of the Playwright config that calls `withBwa` (set by it in the main process; workers inherit it). The folders below, `.env` and the run's outputs resolve from it, never from bwa's package",
  }),
  AGENT_ENV_FILE: text('.env', {
    takes: "a file (relative to the project's folder), or `none`",
    description:
      'the file of `NAME=value` lines (keys, `SECRET_<NAME>`) loaded into the environment when a run or a command starts; a variable already set wins over the file. `none` loads no file',
  }),
  AGENT_TASKS_DIR: folder('tasks', { description: 'where task specs and `inputs/` live' }),
  AGENT_REPORTS_DIR: folder('reports', { description: 'where reports and evidence go' }),
  AGENT_AUTH_DIR: folder('.auth', { description: 'where the signed-in (or imported) storage states of auth profiles live' }),
};

/** Set by bwa in the main process for its workers (or by Playwright, or a CI system), read like the others. */
const PASSED_ON = {
  AGENT_INVOCATION_ID: text('none', {
    takes: 'text',
    description: 'set once per `playwright test` invocation in the main process (like `AGENT_RUN_ID`): a resumed run starts afresh',
  }),
  AGENT_TASK_BLOCKERS: jsonTextRecord({
    takes: 'a JSON object of task id → reason',
    description: 'written by globalSetup: task id → why its samples cannot run (its site did not start, its sign-in failed)',
  }),
  PLAYWRIGHT_BLOB_OUTPUT_DIR: text(undefined, {
    takes: 'a folder',
    description: "Playwright's: when set, bwa leaves the blob report's file name to Playwright",
  }),
  PLAYWRIGHT_BLOB_OUTPUT_FILE: text(undefined, {
    takes: 'a file path',
    fallbackText: '`reports/blob/<run_id>/report.zip`',
    description:
      "Playwright's blob report file: one per run and shard (`report-2-of-4.zip` for `--shard=2/4`), so shards run one after another keep each other's reports",
  }),
  CI: text(undefined, { takes: 'any text', description: 'set by CI systems: `test.only` fails the run' }),
};

const SELF_TESTS = {
  BWA_FULL: onOff(false, {
    description:
      "on makes the reference-workflow tests run every sample of each task's CSV (60 tickets, commits, code strings) with the recipe and the scripted model; by default they run every third row plus every special case, which keeps `npm test` inside CI's budget",
  }),
  BWA_SELF_WORKERS: wholeNumber({ min: 1, fallback: 3 }, { description: 'workers of `npm test`' }),
};

/** The groups docs/environment.md shows, in order. */
export const ENV_GROUPS: ReadonlyArray<{ title: string; intro?: string; variables: Record<string, EnvVariable> }> = [
  { title: 'Runs', variables: RUN },
  { title: 'The model', variables: MODEL },
  { title: 'The browser', variables: BROWSER },
  { title: 'Folders', variables: FOLDERS },
  {
    title: 'Secrets',
    variables: {
      [`${SECRET_ENV_PREFIX}<NAME>`]: text(undefined, {
        sensitive: true,
        description:
          'the value behind `{{secret:NAME}}` in a task or sign-in profile: typed only on the sites the profile or task names, masked (in every encoding a page or URL gives it) wherever it would leave bwa — prompts, logs, results, traces, test attachments',
      }),
      [`${SETTING_ENV_PREFIX}<NAME>`]: text(undefined, {
        description:
          'the value behind `{{env:NAME}}`: a plain setting typed as is and never masked, for what needs no secrecy (a sign-in user name the pages show)',
      }),
    },
  },
  {
    title: 'Passed on to workers',
    intro: 'Set by bwa (or Playwright, or a CI system) in the main process; workers and `merge-reports` inherit them.',
    variables: PASSED_ON,
  },
  { title: "The project's own tests", intro: 'Read only by `npm test` and its specs.', variables: SELF_TESTS },
];

export const ENV_VARIABLES = { ...RUN, ...MODEL, ...BROWSER, ...FOLDERS, ...PASSED_ON, ...SELF_TESTS };
export type EnvName = keyof typeof ENV_VARIABLES;
