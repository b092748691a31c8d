import type { Browser } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openBrowser } from '../browser/remote';
import type { DeciderMode } from '../decide/select-decider';
import { env } from '../env/read';
import { readJsonIfExists, writeJsonAtomic } from '../fs/atomic';
import { settings } from '../settings';
import { discoveredSamplesPath } from '../task/discovered';
import { BwaInputError } from '../task/input-errors';
import type { LoadedTask } from '../task/load-task';
import { loadSamplesCsv } from '../task/samples';
import type { DiscoverBlock } from '../task/schema';
import { discoverBlockProblems, formatProblems } from './discover-columns';
import { discoveryContext } from './discovery-browser';
import { runDiscoverySession, type DiscoveryDeciderKind } from './discovery-session';
import { DISCOVERY_SAMPLE_ID } from './discovery-spec';
import { writeDiscoveredCsv } from './samples-csv';

export interface DiscoverOptions {
  runId?: string;
  /** Browse again even when this run already has the task's samples. */
  force?: boolean;
  /** Lower cap than the task's max_items (default: AGENT_DISCOVER_MAX_ITEMS). */
  maxItems?: number;
  decider?: DeciderMode;
  /** A shared browser, launched on first use (globalSetup discovers several tasks with one). */
  browser?: () => Promise<Browser>;
  log?: (line: string) => void;
}

export interface DiscoveryReport {
  task_id: string;
  samples_file: string;
  items: number;
  pages: Array<{ page_number: number; url: string; new_items: number }>;
  /** Samples were already discovered in this run: nothing was browsed. */
  reused: boolean;
  /** Discovery reached the end of the listing or a cap (false: it stopped early; the list may be short). */
  complete: boolean;
  status: string;
  stop_reason: string;
  decider: string;
  mode: string | null;
  max_items: number;
  dropped: string[];
  started_at: string;
  finished_at: string;
}

export const REPORT_FILE = 'discovery.json';

/** reports/runs/<run>/<task>/_discovery/: the discovery's own evidence (action log, checkpoint, result, report). */
export function discoveryDir(taskId: string, runId = settings.runId): string {
  return path.join(path.dirname(discoveredSamplesPath(taskId, runId)), DISCOVERY_SAMPLE_ID);
}

/**
 * Writes the run's samples CSV for a task with a discover block, by browsing its listing; a run that already
 * has the file reuses it (Playwright workers, re-runs and shards of the same AGENT_RUN_ID see one list).
 */
export async function discoverTask(task: LoadedTask, options: DiscoverOptions = {}): Promise<DiscoveryReport> {
  const spec = task.spec;
  const block = spec.discover;
  if (!block)
    throw new BwaInputError('BWA_DISCOVER_NONE', `${task.file}: task ${spec.task_id} has no "discover" block, so there is nothing to discover`);
  const problems = discoverBlockProblems(spec);
  if (problems.length)
    throw new BwaInputError('BWA_DISCOVER_SPEC', `${task.file}: the discover block cannot produce this task's samples\n${formatProblems(problems)}`);
  const runId = options.runId ?? settings.runId;
  const file = discoveredSamplesPath(spec.task_id, runId);
  const dir = discoveryDir(spec.task_id, runId);
  const log = options.log ?? (() => {});
  if (fs.existsSync(file) && !options.force) {
    const report = reusedReport(task, file, dir);
    log(`bwa discover ${spec.task_id}: reusing ${report.items} discovered sample(s) of run ${runId} (${file})`);
    return report;
  }
  const decider = chooseDecider(task, block, options.decider ?? settings.decider);
  const maxItems = Math.min(block.max_items, options.maxItems ?? env.AGENT_DISCOVER_MAX_ITEMS ?? Infinity);
  const startedAt = new Date().toISOString();
  log(
    `bwa discover ${spec.task_id}: browsing ${block.start_url} (${decider === 'model' ? 'model' : 'item_link/next locators'}, up to ${maxItems} items)`,
  );
  const browser = options.browser ? await options.browser() : await openBrowser();
  try {
    const context = await discoveryContext(browser, spec);
    try {
      const outcome = await runDiscoverySession({ task, block, decider, context, page: await context.newPage(), runId, dir, maxItems });
      const status = outcome.result.status;
      if (outcome.collector.size === 0)
        throw new BwaInputError(
          'BWA_DISCOVER_EMPTY',
          `discovery for task ${spec.task_id} found no items at ${block.start_url} (${status}: ${outcome.stopReason || 'no reason given'}); its action log is in ${dir}`,
        );
      const { dropped } = writeDiscoveredCsv(task, outcome.collector.items, file);
      const report: DiscoveryReport = {
        task_id: spec.task_id,
        samples_file: file,
        items: outcome.collector.size - dropped.length,
        pages: outcome.pages,
        reused: false,
        complete: status === 'done',
        status,
        stop_reason: outcome.stopReason,
        decider,
        mode: outcome.mode ?? (decider === 'model' ? 'model' : null),
        max_items: maxItems,
        dropped,
        started_at: startedAt,
        finished_at: new Date().toISOString(),
      };
      writeJsonAtomic(path.join(dir, REPORT_FILE), report);
      log(summaryLine(report));
      return report;
    } finally {
      await context.close().catch(() => {});
    }
  } finally {
    if (!options.browser) await browser.close().catch(() => {});
  }
}

export function summaryLine(report: DiscoveryReport): string {
  const pages = report.pages.length;
  const head = `bwa discover ${report.task_id}: ${report.items} sample(s) from ${pages} page(s)`;
  const how = report.mode ? ` (${report.mode})` : '';
  const end = report.complete
    ? `stopped: ${report.stop_reason}`
    : `STOPPED EARLY (${report.status}): ${report.stop_reason} — the list may be incomplete`;
  const dropped = report.dropped.length ? `; ${report.dropped.length} item(s) dropped (see discovery.json)` : '';
  return `${head}${how} → ${report.samples_file}; ${end}${dropped}`;
}

function chooseDecider(task: LoadedTask, block: DiscoverBlock, mode: DeciderMode): DiscoveryDeciderKind {
  const hasKey = Boolean(env.ANTHROPIC_API_KEY);
  if (mode === 'model' || (mode === 'auto' && hasKey)) {
    if (!hasKey)
      throw new BwaInputError(
        'BWA_NO_API_KEY',
        `AGENT_DECIDER=model needs ANTHROPIC_API_KEY to discover ${task.spec.task_id}${block.item_link ? '; or run with AGENT_DECIDER=recipe' : ''}`,
      );
    return 'model';
  }
  if (!block.item_link)
    throw new BwaInputError(
      'BWA_NO_DECIDER',
      `${task.file}: discovering ${task.spec.task_id} without a model needs discover.item_link (a locator matching every item link; plus discover.next for more pages) — or set ANTHROPIC_API_KEY to let Claude browse the listing`,
    );
  return 'recipe';
}

function reusedReport(task: LoadedTask, file: string, dir: string): DiscoveryReport {
  const previous = readJsonIfExists(path.join(dir, REPORT_FILE)) as Partial<DiscoveryReport> | undefined;
  const rows = loadSamplesCsv(task.spec, file).length;
  const now = new Date().toISOString();
  return {
    task_id: task.spec.task_id,
    samples_file: file,
    items: rows,
    pages: previous?.pages ?? [],
    reused: true,
    complete: previous?.complete ?? true,
    status: previous?.status ?? 'done',
    stop_reason: previous?.stop_reason ?? 'reused',
    decider: previous?.decider ?? 'unknown',
    mode: previous?.mode ?? null,
    max_items: previous?.max_items ?? task.spec.discover?.max_items ?? 0,
    dropped: previous?.dropped ?? [],
    started_at: previous?.started_at ?? now,
    finished_at: previous?.finished_at ?? now,
  };
}
