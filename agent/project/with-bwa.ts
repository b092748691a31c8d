import type { PlaywrightTestConfig, Project, ReporterDescription } from '@playwright/test';
import * as path from 'node:path';
import { browserFor } from '../browser/remote';
import { loadEnvFile } from '../env/env-file';
import { env, passOnUnlessSet, projectDir } from '../env/read';
import type { EnvName } from '../env/variables';
import { prepareRunEnvironment, stopOnBadEnvironment } from '../setup/run-env';
import { settings } from '../settings';
import { configDir } from '../env/config-dir';
import { BWA_PROJECTS, PROJECT_FILES } from './names';

/** What `withBwa` takes besides the config; every folder is relative to the project's folder. */
export interface BwaOptions {
  /** The project's folder, which the folders below are relative to (default: the folder of the Playwright config, found as Playwright finds it). */
  projectDir?: string;
  /** Task specs, `inputs/`, `recipes/` and `auth/` (default `tasks`; AGENT_TASKS_DIR wins). */
  tasksDir?: string;
  /** Evidence, test output and Allure input of each run (default `reports`; AGENT_REPORTS_DIR wins). */
  reportsDir?: string;
  /** Signed-in storage states of sign-in profiles (default `.auth`; AGENT_AUTH_DIR wins). Keep it out of git. */
  authDir?: string;
  /** `use` options for bwa's project only, over the config's own top-level `use`. */
  use?: Project['use'];
  /**
   * Adds allure-playwright (which the project must have installed) writing each run into
   * `<reportsDir>/allure-results/<run_id>/`, with these options besides `resultsDir`.
   */
  allure?: boolean | Record<string, unknown>;
  /**
   * Playwright's HTML report with each sample's status as a label (a needs_review sample passes with a green tick
   * otherwise), in place of an `html` reporter of the config's own (its options kept), else into
   * `<reportsDir>/html`; these options besides.
   */
  html?: boolean | Record<string, unknown>;
}

type Reporters = Exclude<PlaywrightTestConfig['reporter'], undefined>;

/**
 * The user's Playwright config with bwa added, everything of theirs kept: their projects (or their one implicit
 * project), reporters, `use`, globalSetup and globalTeardown. bwa adds its project (`bwa`: one test per task
 * sample, tagged `@<task_id>`) and the batch judge that follows it, its reporter (evidence, combined.csv,
 * manifest), and its globalSetup after theirs (local servers, sign-ins, discovery of the selected tasks).
 *
 *     export default withBwa(defineConfig({ ... }));
 */
export function withBwa(config: PlaywrightTestConfig, options: BwaOptions = {}): PlaywrightTestConfig {
  const projectDir = passOnUnlessSet('AGENT_PROJECT_DIR', () => path.resolve(options.projectDir ?? configDir()));
  loadEnvFile();
  passOnFolder('AGENT_TASKS_DIR', projectDir, options.tasksDir);
  passOnFolder('AGENT_REPORTS_DIR', projectDir, options.reportsDir);
  passOnFolder('AGENT_AUTH_DIR', projectDir, options.authDir);
  stopOnBadEnvironment();
  const { runId, reportsDir } = prepareRunEnvironment();

  const { shared, identity } = splitIdentity(config.use);
  // Their projects get their whole `use` as before; bwa's, all of it but who the browser is to their app.
  const theirs = (config.projects ?? [{}]).map(project => (identity ? { ...project, use: underneath(identity, project.use) } : project));
  const clash = theirs.find(project => Object.values(BWA_PROJECTS).includes(project.name as never));
  if (clash)
    throw new Error(
      `withBwa: your config already has a project named "${clash.name}"; bwa adds projects ${Object.values(BWA_PROJECTS).join(' and ')}`,
    );
  const use = { ...config.use, ...options.use };
  const tasks: Project = {
    name: BWA_PROJECTS.tasks,
    testDir: PROJECT_FILES.dir,
    testMatch: PROJECT_FILES.generator,
    testIgnore: [],
    teardown: BWA_PROJECTS.judge,
    // Per run: two runs in one project never share test output.
    outputDir: path.join(reportsDir, 'test-results', runId),
    fullyParallel: true,
    retries: env.AGENT_RETRIES,
    timeout: 120_000,
    use: {
      ...options.use,
      ...browserFor(use),
      acceptDownloads: true,
      trace: settings.trace,
      // bwa takes its own screenshots, each hashed as it is written; a video needs a downloaded ffmpeg.
      screenshot: 'off',
      video: 'off',
    },
  };
  const judge: Project = {
    name: BWA_PROJECTS.judge,
    testDir: PROJECT_FILES.dir,
    testMatch: PROJECT_FILES.judge,
    testIgnore: [],
    outputDir: path.join(reportsDir, 'test-results', runId),
    retries: 0,
  };
  return {
    ...config,
    ...(identity ? { use: shared } : {}),
    projects: [...theirs, tasks, judge],
    reporter: [
      // Secrets masked out of each finished test before any reporter after it reads or copies the test.
      [moduleBeside('../report/mask-reporter')],
      ...withHtmlLabels(reportersOf(config.reporter), options.html, reportsDir),
      [moduleBeside('../report/reporter')],
      ...allureReporter(options.allure, reportsDir, runId),
    ],
    globalSetup: [...listOf(config.globalSetup), moduleBeside('../setup/global-setup')],
  };
}

type Use = NonNullable<PlaywrightTestConfig['use']>;

/**
 * Options that say who the browser is to the team's own app — signed-in state, headers and credentials sent with every
 * request, the app's base URL. bwa's samples visit other sites and sign in through their auth profiles: a top-level
 * storageState their setup project writes would fail every sample, and their token would go to every site visited.
 */
const SITE_IDENTITY = ['storageState', 'extraHTTPHeaders', 'httpCredentials', 'clientCertificates', 'baseURL'] as const;

/** Their top-level `use` without the identity options (which bwa's project then inherits), and those, for their projects. */
function splitIdentity(use: Use | undefined): { shared: Use; identity: Use | undefined } {
  if (!use) return { shared: {}, identity: undefined };
  const holds = (options: object | undefined) => SITE_IDENTITY.some(key => options !== undefined && key in options);
  if (!holds(use) && !holds(use.contextOptions)) return { shared: use, identity: undefined };
  const shared: Record<string, unknown> = { ...use };
  const identity: Record<string, unknown> = {};
  for (const key of SITE_IDENTITY)
    if (key in use) {
      identity[key] = use[key];
      delete shared[key];
    }
  if (holds(use.contextOptions)) {
    // Their projects keep the whole object (a project's own contextOptions replaces it, as before); bwa's loses these.
    identity.contextOptions = use.contextOptions;
    const context: Record<string, unknown> = { ...use.contextOptions };
    for (const key of SITE_IDENTITY) delete context[key];
    shared.contextOptions = context;
  }
  return { shared: shared as Use, identity: identity as Use };
}

/** A project's `use` over the top level's, as Playwright merges them: an option the project leaves undefined is inherited. */
function underneath(top: Use, own: Use | undefined): Use {
  const merged: Record<string, unknown> = { ...top };
  for (const [key, value] of Object.entries(own ?? {})) if (value !== undefined) merged[key] = value;
  return merged as Use;
}

/** The config's folder option, unless its variable is set (the environment wins), made absolute for the workers. */
function passOnFolder(name: EnvName, projectDir: string, option: string | undefined): void {
  if (option !== undefined) passOnUnlessSet(name, () => path.resolve(projectDir, option));
}

/** Their reporters as a list; none given means Playwright's default, which stays. */
function reportersOf(reporter: PlaywrightTestConfig['reporter']): ReporterDescription[] {
  if (reporter === undefined) return [[env.CI ? 'dot' : 'list']];
  return typeof reporter === 'string' ? [[reporter]] : [...(reporter as Exclude<Reporters, string>)];
}

function withHtmlLabels(reporters: ReporterDescription[], html: BwaOptions['html'], reportsDir: string): ReporterDescription[] {
  if (!html) return reporters;
  const labelled = moduleBeside('../report/html-reporter');
  const extra = html === true ? {} : html;
  const theirs = reporters.findIndex(([name]) => name === 'html');
  if (theirs === -1) return [...reporters, [labelled, { open: 'never', outputFolder: path.join(reportsDir, 'html'), ...extra }]];
  return reporters.map((reporter, index) => (index === theirs ? [labelled, { ...(reporter[1] as object), ...extra }] : reporter));
}

function allureReporter(allure: BwaOptions['allure'], reportsDir: string, runId: string): ReporterDescription[] {
  if (!allure) return [];
  try {
    require.resolve('allure-playwright', { paths: [projectDir()] });
  } catch {
    throw new Error('withBwa: the allure option needs allure-playwright in your project: npm i -D allure-playwright (or leave the option out)');
  }
  const resultsDir = path.join(reportsDir, 'allure-results', runId);
  return [['allure-playwright', { detail: true, suiteTitle: true, ...(allure === true ? {} : allure), resultsDir }]];
}

function listOf(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** A module of bwa's by its path from this folder, with this build's extension (.ts in the checkout, .js installed). */
function moduleBeside(relative: string): string {
  return path.join(__dirname, `${relative}${path.extname(__filename)}`);
}
