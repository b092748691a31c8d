/**
 * Model economy: model calls, vision share, input tokens, cache-read share and the tools block per sample, for the
 * widget lab's interactive cases and the reference workflows, decided by the scripted model. Every figure comes
 * from what fixtures/model-server recorded, so two agents are measured with the same accounting. With
 * --baseline <git-ref>, the same cases run first with the agent as it is at that ref ("today"), exported with
 * `git archive` into a temp folder that borrows this checkout's node_modules.
 *
 * Usage: npx tsx bench/economy/run.ts [--baseline main] [--samples 3] [--only widgets|workflows|articles] [--tasks tracker_tickets,…]
 *        [--articles 8] [--articles-dir ../shared/corpora/article-pages]
 * --articles N adds N saved real article pages (a reading task: screenshot, headline, first sentence).
 * BENCH_DUMP=<file> also writes every request the server recorded (per variant, the last one wins) for a closer look.
 */
import type { Browser } from '@playwright/test';
import { execSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startModelServer, type ModelServer, type ScriptInput } from '../../fixtures/model-server';
import { ensureFixtureSites } from '../../fixtures/serve';
import { loadSamplesCsv } from '../../agent/task/samples';
import { loadTaskFile } from '../../agent/task/load-task';
import { authStatePath } from '../../agent/task/auth-profile';
import { CONTEXT_OPTIONS, launchChromium } from '../lib/browser';
import { tempDirFor } from '../lib/temp';
import { WORKFLOWS } from '../recipe/workflows';
import { startLegacyRouteProxy } from './legacy-route';
import { figuresOf, type SampleFigures } from './measure';
import { printReport } from './report';
import { WIDGET_CASE_TASKS } from './widget-cases';
import { ARTICLE_TASK, articleScript, articleTaskSpec } from './article-cases';
import { readCorpus, serveCorpus, type CorpusServer } from '../perception/corpus';
import { z } from 'zod';
import { defineCommand, type OptionValues } from '../../agent/cli/command';
import { wholeNumberText } from '../../agent/env/kinds';
import { runBench } from '../lib/command';

type Row = Record<string, string>;

interface Case {
  task: string;
  row: Row;
  script: ScriptInput;
  authProfile?: string;
}

/** The agent under test: this checkout, or one exported from a git ref. */
interface Variant {
  name: string;
  root: string;
}

/** Every task the bench runs, in a tasks folder of its own: the bundled specs without recipes, plus the widget cases. */
function prepareTasksDir(): string {
  const dir = tempDirFor('tasks');
  fs.cpSync(path.resolve('tasks'), dir, { recursive: true });
  fs.rmSync(path.join(dir, 'recipes'), { recursive: true, force: true });
  for (const file of fs.readdirSync(dir).filter(f => f.endsWith('.json') && f !== 'task.schema.json')) {
    const spec = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    delete spec.recipe;
    delete spec.$schema;
    // The bench serves the stand-in sites itself, and a baseline agent older than web_servers would refuse the spec.
    delete spec.web_servers;
    fs.writeFileSync(path.join(dir, file), JSON.stringify(spec, null, 2));
  }
  for (const widget of WIDGET_CASE_TASKS) {
    const taskId = String(widget.spec.task_id);
    fs.writeFileSync(path.join(dir, `${taskId}.json`), JSON.stringify(widget.spec, null, 2));
    for (const [name, content] of Object.entries(widget.inputs ?? {})) {
      fs.mkdirSync(path.join(dir, 'inputs', taskId), { recursive: true });
      fs.writeFileSync(path.join(dir, 'inputs', taskId, name), content);
    }
  }
  return dir;
}

async function workflowCases(browser: Browser, tasksDir: string, samples: number, only: readonly string[] | undefined): Promise<Case[]> {
  const cases: Case[] = [];
  for (const workflow of WORKFLOWS.filter(w => !only || only.includes(w.task))) {
    await workflow.truth();
    const task = loadTaskFile(path.join(tasksDir, `${workflow.task}.json`));
    let rows: Row[] = loadSamplesCsv(task.spec, path.join(tasksDir, 'inputs', `${workflow.task}.csv`)).map(s => s.row);
    if (workflow.rows && rows.length < samples) rows = await workflow.rows(undefined);
    await workflow.prepare?.(browser);
    for (const row of rows.slice(0, samples))
      cases.push({ task: workflow.task, row, script: answeringAsides(workflow.script(row)), authProfile: task.spec.auth_profile ?? undefined });
  }
  return cases;
}

/** The first `count` pages of the saved corpus, in id order, with the reading task written into the tasks folder. */
function articleCases(corpus: CorpusServer, dir: string, count: number, tasksDir: string): Case[] {
  fs.writeFileSync(path.join(tasksDir, `${ARTICLE_TASK}.json`), JSON.stringify(articleTaskSpec(corpus.origin), null, 2));
  return readCorpus(dir)
    .slice(0, count)
    .map(page => ({ task: ARTICLE_TASK, row: { sample_id: page.id.slice(0, 12), url: corpus.urlOf(page.id) }, script: articleScript() }));
}

function widgetCases(only: readonly string[] | undefined): Case[] {
  return WIDGET_CASE_TASKS.filter(w => !only || only.includes(String(w.spec.task_id))).map(w => ({
    task: String(w.spec.task_id),
    row: { sample_id: w.slug },
    script: answeringAsides(w.script),
  }));
}

/**
 * Step summaries and run-memory tips get a fixed text where a script has no rule for them: both agents ask for
 * them, and what the text says does not change what either is billed.
 */
function answeringAsides(script: ScriptInput): ScriptInput {
  return { on_unmatched: 'canned', ...script };
}

/** Exports the ref into a temp folder once (kept between runs), with this checkout's node_modules linked in. */
function exportRef(ref: string): string {
  const sha = execSync(`git rev-parse ${ref}`, { encoding: 'utf8' }).trim();
  const dir = path.join(os.tmpdir(), `bwa-economy-${sha.slice(0, 12)}`);
  if (!fs.existsSync(path.join(dir, 'agent', 'session.ts'))) {
    fs.mkdirSync(dir, { recursive: true });
    execSync(`git archive ${sha} | tar -x -C ${JSON.stringify(dir)}`);
  }
  if (!fs.existsSync(path.join(dir, 'node_modules'))) fs.symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

async function runVariant(
  variant: Variant,
  browser: Browser,
  server: ModelServer,
  tasksDir: string,
  cases: readonly Case[],
): Promise<SampleFigures[]> {
  process.env.AGENT_REPORTS_DIR = tempDirFor(`reports-${variant.name}`);
  const legacy = variant.name === 'now' ? undefined : await startLegacyRouteProxy(server.url);
  process.env.ANTHROPIC_BASE_URL = legacy?.url ?? server.url;
  const { SampleSession } = (await import(path.join(variant.root, 'agent', 'session.ts'))) as typeof import('../../agent/session');
  const { loadTaskFile: load } = (await import(
    path.join(variant.root, 'agent', 'task', 'load-task.ts')
  )) as typeof import('../../agent/task/load-task');
  server.reset();
  const figures: SampleFigures[] = [];
  const runId = `economy-${variant.name}-${Date.now()}`;
  for (const c of cases) {
    server.setScript(c.task, c.row.sample_id!, c.script);
    const task = load(path.join(tasksDir, `${c.task}.json`));
    const context = await browser.newContext({ ...CONTEXT_OPTIONS, ...(c.authProfile ? { storageState: authStatePath(c.authProfile) } : {}) });
    try {
      const sample = { sample_id: c.row.sample_id!, row: c.row, line: 2, source: 'bench' };
      const dir = path.join(process.env.AGENT_REPORTS_DIR!, c.task, c.row.sample_id!);
      const session = await SampleSession.prepare({
        task,
        sample,
        context,
        page: await context.newPage(),
        runId,
        attempt: 0,
        deciderMode: 'model',
        dir,
      });
      const result = await session.run();
      figures.push(figuresOf(server.requests, c.task, c.row.sample_id!, result));
      if (result.status !== 'done') console.log(`  ${variant.name} ${c.task}/${c.row.sample_id}: ${result.status} — ${result.error ?? ''}`);
    } finally {
      await context.close();
    }
  }
  await legacy?.close();
  for (const error of server.errors) console.log(`  ${variant.name}: ${error}`);
  if (process.env.BENCH_DUMP) fs.writeFileSync(process.env.BENCH_DUMP, JSON.stringify(server.requests, null, 1));
  return figures;
}

const benchCommand = defineCommand({
  program: 'npx tsx',
  name: 'bench/economy/run.ts',
  summary: "What a sample costs (model calls, tokens, steps) with this checkout's agent, against a baseline's",
  options: {
    baseline: { type: 'string', placeholder: 'ref', help: 'a git ref whose agent runs the same samples first' },
    samples: { type: 'string', placeholder: 'n', value: wholeNumberText(1), help: 'samples per workflow task (default 3)' },
    only: {
      type: 'string',
      placeholder: 'kind',
      value: { schema: z.enum(['widgets', 'workflows', 'articles']), takes: 'widgets, workflows or articles' },
      help: 'run one kind of case only',
    },
    tasks: { type: 'string', placeholder: 'ids', help: 'the tasks to run, comma-separated (default: all)' },
    articles: { type: 'string', placeholder: 'n', value: wholeNumberText(0), help: 'articles of the corpus to add (default 0)' },
    'articles-dir': { type: 'string', placeholder: 'dir', help: 'the article corpus (default ../shared/corpora/article-pages)' },
  },
  positionals: [],
  run: async ({ options }) => {
    await main(options);
    return 0;
  },
});

async function main(given: OptionValues<typeof benchCommand.options>): Promise<void> {
  const { only, baseline } = given;
  const tasks = given.tasks?.split(',');
  const samples = given.samples ?? 3;
  const articles = given.articles ?? 0;
  const articlesDir = path.resolve(given['articles-dir'] ?? '../shared/corpora/article-pages');
  const corpus = articles > 0 ? await serveCorpus(articlesDir) : undefined;
  const sites = await ensureFixtureSites();
  const server = await startModelServer();
  const browser = await launchChromium();
  Object.assign(process.env, { ANTHROPIC_API_KEY: 'bench-key', ANTHROPIC_BASE_URL: server.url, AGENT_DECIDER: 'model', AGENT_MODEL_RETRIES: '0' });
  try {
    const tasksDir = prepareTasksDir();
    process.env.AGENT_TASKS_DIR = tasksDir;
    const cases = [
      ...(only && only !== 'widgets' ? [] : widgetCases(tasks)),
      ...(only && only !== 'workflows' ? [] : await workflowCases(browser, tasksDir, samples, tasks)),
      ...(corpus && (!only || only === 'articles') ? articleCases(corpus, articlesDir, articles, tasksDir) : []),
    ];
    const variants: Variant[] = [...(baseline ? [{ name: baseline, root: exportRef(baseline) }] : []), { name: 'now', root: path.resolve('.') }];
    const measured = new Map<string, SampleFigures[]>();
    for (const variant of variants) {
      console.log(
        `running ${cases.length} samples with the agent of ${variant.name === 'now' ? 'this checkout' : `${variant.name} (${variant.root})`}…`,
      );
      measured.set(variant.name, await runVariant(variant, browser, server, tasksDir, cases));
    }
    printReport(measured.get('now')!, baseline ? { name: baseline, figures: measured.get(baseline)! } : undefined);
  } finally {
    await browser.close();
    await server.close();
    await sites.close();
    await corpus?.close();
  }
}

runBench(benchCommand);
