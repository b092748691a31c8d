import * as fs from 'node:fs';
import * as path from 'node:path';

import { PROJECT_FILES } from '../project/names';

/** The generated-tests file (agent/project/tasks.spec.ts, .js in the package): only projects that load it run tasks. */
export const GENERATOR_FILE = PROJECT_FILES.generator;

export interface CliSelection {
  grep?: string;
  grepInvert?: string;
  projects: string[];
  /** Positional file filters (regular expressions on the test file path). */
  files: string[];
}

export interface ProjectInfo {
  name: string;
  testDir: string;
  testMatch: string | RegExp | Array<string | RegExp>;
}

const VALUE_OPTIONS = new Set([
  '-c',
  '--config',
  '-g',
  '--grep',
  '-G',
  '--grep-invert',
  '--global-timeout',
  '--last-failed-file',
  '--max-failures',
  '--output',
  '--repeat-each',
  '--reporter',
  '--add-reporter',
  '--retries',
  '--run-agents',
  '--shard',
  '--test-list',
  '--test-list-invert',
  '--timeout',
  '--trace',
  '--tsconfig',
  '--ui-host',
  '--ui-port',
  '--update-source-method',
  '-j',
  '--workers',
  '--browser',
]);
const OPTIONAL_VALUE_OPTIONS = new Set(['--debug', '--only-changed', '--shuffle', '-u', '--update-snapshots']);

/**
 * What `playwright test …` was asked to run, read from FullConfig.argv: the CLI's --grep, --project and file
 * filters never reach the config object globalSetup receives.
 */
export function parseTestArgs(argv: readonly string[]): CliSelection {
  const start = argv.indexOf('test');
  const args = start === -1 ? [] : argv.slice(start + 1);
  const selection: CliSelection = { projects: [], files: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? args[++i] ?? '';
    if (flag === '--project') {
      if (inline !== undefined) selection.projects.push(inline);
      while (inline === undefined && args[i + 1] !== undefined && !args[i + 1]!.startsWith('-')) selection.projects.push(args[++i]!);
    } else if (flag === '-g' || flag === '--grep') selection.grep = value();
    else if (flag === '-G' || flag === '--grep-invert') selection.grepInvert = value();
    else if (VALUE_OPTIONS.has(flag)) value();
    else if (OPTIONAL_VALUE_OPTIONS.has(flag)) {
      if (inline === undefined && args[i + 1] !== undefined && !args[i + 1]!.startsWith('-') && !looksLikeFile(args[i + 1]!)) i++;
    } else if (!arg.startsWith('-')) selection.files.push(arg);
  }
  return selection;
}

/**
 * Which tasks this run will load tests for, as far as the command line tells before the tests load. A grep is
 * matched against each test title Playwright will see (` tasks tasks.spec.ts <task> <sample> @<task>`) when the
 * samples are known, else against the task's describe title and tag (discovered samples are not known yet) or a
 * grep that names the task; unreadable selections err towards selecting.
 */
export function selectTasks(
  taskIds: readonly string[],
  selection: CliSelection,
  projects: readonly ProjectInfo[],
  samplesOf: (taskId: string) => readonly string[] = () => [],
): string[] {
  const taskProjects = projectsRunningTasks(selection, projects);
  if (taskProjects.length === 0) return [];
  if (
    selection.files.length &&
    projects.some(hasGenerator) &&
    !taskProjects.some(p => selection.files.some(f => fileFilterMatches(f, generatorPath(p))))
  )
    return [];
  return taskIds.filter(id => {
    const samples = samplesOf(id);
    return samples.length
      ? samples.some(sample => titleSelected(id, sample, selection, taskProjects))
      : titleSelected(id, undefined, selection, taskProjects);
  });
}

/** Whether the grep selects this sample's test (or, with no sample, the task's describe title and tag) in one of these projects. */
function titleSelected(taskId: string, sample: string | undefined, selection: CliSelection, taskProjects: readonly ProjectInfo[]): boolean {
  const grep = selection.grep === undefined ? undefined : toRegExp(selection.grep);
  const grepInvert = selection.grepInvert === undefined ? undefined : toRegExp(selection.grepInvert);
  return taskProjects.some(project => {
    const title = ` ${project.name} ${GENERATOR_FILE} ${taskId}${sample === undefined ? '' : ` ${sample}`} @${taskId}`;
    const selected = !grep || matches(grep, title) || (selection.grep ?? '').includes(taskId);
    return selected && !(grepInvert && matches(grepInvert, title));
  });
}

/** The samples of a selected task whose tests the command line selects (a grep may name one sample). */
export function selectSamples(taskId: string, samples: readonly string[], selection: CliSelection, projects: readonly ProjectInfo[]): string[] {
  const taskProjects = projectsRunningTasks(selection, projects);
  return samples.filter(sample => titleSelected(taskId, sample, selection, taskProjects));
}

/** The chosen projects that load the generated tests (all chosen ones when no project points at the generator). */
function projectsRunningTasks(selection: CliSelection, projects: readonly ProjectInfo[]): ProjectInfo[] {
  const chosen = projects.filter(p => selection.projects.length === 0 || selection.projects.some(name => projectNameMatches(name, p.name)));
  return projects.some(hasGenerator) ? chosen.filter(hasGenerator) : chosen;
}

function hasGenerator(project: ProjectInfo): boolean {
  if (!fs.existsSync(generatorPath(project))) return false;
  const patterns = Array.isArray(project.testMatch) ? project.testMatch : [project.testMatch];
  return patterns.some(p => (typeof p === 'string' ? p.includes('*') || path.basename(p) === GENERATOR_FILE : matches(p, generatorPath(project))));
}

function generatorPath(project: ProjectInfo): string {
  return path.join(project.testDir, GENERATOR_FILE);
}

function projectNameMatches(filter: string, name: string): boolean {
  const lower = filter.toLowerCase();
  if (!lower.includes('*')) return lower === name.toLowerCase();
  return new RegExp(`^${lower.split('*').map(escapeRegExp).join('.*')}$`).test(name.toLowerCase());
}

/** As Playwright reads a file argument: `path[:line[:column]]`, the path a regular expression. */
function fileFilterMatches(filter: string, file: string): boolean {
  const bare = filter.replace(/:\d+(:\d+)?$/, '');
  try {
    return new RegExp(bare, 'i').test(file);
  } catch {
    return file.includes(bare);
  }
}

/** As Playwright reads --grep: `/re/flags` or a case-insensitive pattern. */
function toRegExp(pattern: string): RegExp {
  const literal = /^\/(.*)\/([gi]*)$/.exec(pattern);
  try {
    return literal ? new RegExp(literal[1] ?? '', (literal[2] ?? '').replace('g', '')) : new RegExp(pattern, 'i');
  } catch {
    return new RegExp(escapeRegExp(pattern), 'i');
  }
}

function matches(re: RegExp, value: string): boolean {
  re.lastIndex = 0;
  return re.test(value);
}

function looksLikeFile(arg: string): boolean {
  return arg.includes('/') || /\.[cm]?[jt]sx?$/.test(arg);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
