/**
 * Reading like an auditor, scored: headline, author, publication date and site name on the widget lab's twelve
 * articles (fr, de, es, ja, it, pt and English with a time zone, a relative date, an updated date, an avatar byline,
 * a release title and hidden content), decided by the scripted model from the page state bwa sends — never from the
 * truth — through the real loop, SDK and evidence. Each field is right when result.json holds the page's value.
 *
 * Usage: npx tsx bench/reading/run.ts [--only article-fr,article-de] [--dump file.json]
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startModelServer, type ScriptInput } from '../../fixtures/model-server';
import type { PageLine } from '../../fixtures/model-server/page-state';
import type { PromptView, ScriptStepInput } from '../../fixtures/model-server/script-schema';
import { ensureFixtureSites } from '../../fixtures/serve';
import { ARTICLE_TRUTH, type ArticleTruth } from '../../fixtures/sites/widgets/cases/articles';
import { loadTaskFile } from '../../agent/task/load-task';
import { SampleSession } from '../../agent/session';
import { CONTEXT_OPTIONS, launchChromium } from '../lib/browser';
import { tempDirFor } from '../lib/temp';
import { defineCommand, type OptionValues } from '../../agent/cli/command';
import { runBench } from '../lib/command';

const TASK = 'article_facts';
const FIELDS = ['headline', 'author', 'published', 'site_name'] as const;
const WIDGETS = 'http://127.0.0.1:4102';

function taskSpec(): Record<string, unknown> {
  return {
    task_id: TASK,
    start_url: '{{url}}',
    system_prompt: 'You are a browser agent reading news articles for an archive, recording where each value came from.',
    goal: 'Read the article headline, its author, its publication date (YYYY-MM-DD) and the name of the site.',
    output_schema: { headline: 'string', author: 'string', published: 'string', site_name: 'string' },
    required_fields: [...FIELDS],
    read_values: true,
    allowed_domains: ['127.0.0.1:4102'],
    max_steps: 6,
    max_time_seconds: 120,
  };
}

/** A document-section line by its field ("[d3] author …", or "[d3] author" on the folded line). */
function documentLine(view: PromptView, field: string): { ref: string } | undefined {
  const line = view.page.find(l => l.ref?.startsWith('d') && l.role === field);
  return line?.ref ? { ref: line.ref } : undefined;
}
const isHeadingOne = (line: PageLine) => line.role === 'heading' && /\(level 1\)/.test(line.rest) && Boolean(line.ref);

/** What a careful reader takes from the page state: the visible headline first, the page's own metadata next. */
function headline(view: PromptView): ScriptStepInput {
  const heading = view.page.find(isHeadingOne);
  if (heading) return read('headline', heading.ref!);
  const fromDocument = documentLine(view, 'title');
  if (fromDocument) return read('headline', fromDocument.ref!);
  // The window title starts with the headline: the line that says the same is the headline.
  const title = /^Title: "(.*)"$/m.exec(view.text)?.[1] ?? '';
  const line = view.page.find(l => l.ref?.startsWith('e') && l.name && l.name.length > 3 && title.startsWith(l.name) && l.role !== 'banner');
  return line ? read('headline', line.ref!) : { tool: 'done', args: { extracted: {}, note: 'no headline in the page state' } };
}

function afterHeading(view: PromptView): PageLine[] {
  const at = view.page.findIndex(isHeadingOne);
  return at >= 0 ? view.page.slice(at + 1) : view.page.filter(line => line.ref?.startsWith('e'));
}

function author(view: PromptView): ScriptStepInput {
  const fromDocument = documentLine(view, 'author');
  if (fromDocument) return read('author', fromDocument.ref!);
  const below = afterHeading(view).slice(0, 6);
  const link = below.find(line => line.role === 'link' && line.ref);
  if (link) return read('author', link.ref!);
  const short = below.find(line => line.role === 'text' && line.ref && (line.name?.length ?? 0) <= 40 && !/\d/.test(line.name ?? ''));
  return short ? read('author', short.ref!) : { tool: 'done', args: { extracted: {}, note: 'no byline in the page state' } };
}

function published(view: PromptView): ScriptStepInput {
  const fromDocument = documentLine(view, 'published') ?? documentLine(view, 'time');
  if (fromDocument) return read('published', fromDocument.ref!, 'date');
  const dated = afterHeading(view)
    .slice(0, 6)
    .find(line => line.ref && /\d{4}/.test(`${line.name ?? ''} ${line.rest}`));
  return dated ? read('published', dated.ref!, 'date') : { tool: 'done', args: { extracted: {}, note: 'no date in the page state' } };
}

function siteName(view: PromptView): ScriptStepInput {
  const fromDocument = documentLine(view, 'site_name');
  return fromDocument ? read('site_name', fromDocument.ref!) : { tool: 'done', args: { extracted: {}, note: 'no site name in the page state' } };
}

function read(field: string, ref: string, type?: string): ScriptStepInput {
  return { tool: 'extract', target: { ref }, args: { field, ...(type ? { type } : {}) } };
}

/** Three reads batched on the first page state, the site name on the next (its document section folded to one line). */
function script(): ScriptInput {
  return {
    description: `${TASK}: headline, author, date and site name from the page state`,
    steps: [
      { what: 'read the headline, author and date', decide: view => ({ batch: [headline(view), author(view), published(view)] }) as ScriptStepInput },
      { what: 'read the site name', decide: siteName },
      { tool: 'done', args: { extracted: {} } },
    ],
    on_unmatched: 'canned',
  } as ScriptInput;
}

interface Scored {
  slug: string;
  status: string;
  right: Record<string, boolean>;
  got: Record<string, unknown>;
  sources: Record<string, string>;
}

function score(
  truth: ArticleTruth,
  extracted: Record<string, { value: unknown; provenance: { source: string; key?: string } }>,
): Omit<Scored, 'slug' | 'status'> {
  const right: Record<string, boolean> = {};
  const got: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  for (const field of FIELDS) {
    const value = extracted[field]?.value;
    got[field] = value;
    sources[field] = extracted[field]
      ? `${extracted[field]!.provenance.source}${extracted[field]!.provenance.key ? ` ${extracted[field]!.provenance.key}` : ''}`
      : '—';
    right[field] = typeof value === 'string' && value.replace(/\s+/g, ' ').trim() === truth[field];
  }
  return { right, got, sources };
}

const benchCommand = defineCommand({
  program: 'npx tsx',
  name: 'bench/reading/run.ts',
  summary: "Headline, author, publication date and site name on the widget lab's articles, with the scripted model",
  options: {
    only: { type: 'string', placeholder: 'slugs', help: 'the articles to read, comma-separated (default: all)' },
    dump: { type: 'string', placeholder: 'file', help: 'write the requests the model server saw to this JSON file' },
  },
  positionals: [],
  run: async ({ options }) => {
    await main(options);
    return 0;
  },
});

async function main({ only: onlyList, dump }: OptionValues<typeof benchCommand.options>): Promise<void> {
  const only = onlyList?.split(',');
  const slugs = Object.keys(ARTICLE_TRUTH).filter(slug => !only || only.includes(slug));
  const sites = await ensureFixtureSites({ only: ['widgets'] });
  const server = await startModelServer();
  const browser = await launchChromium();
  const tasksDir = tempDirFor('reading-tasks');
  fs.writeFileSync(path.join(tasksDir, `${TASK}.json`), JSON.stringify(taskSpec(), null, 2));
  Object.assign(process.env, {
    ANTHROPIC_API_KEY: 'bench-key',
    ANTHROPIC_BASE_URL: server.url,
    AGENT_DECIDER: 'model',
    AGENT_MODEL_RETRIES: '0',
    AGENT_TASKS_DIR: tasksDir,
    AGENT_REPORTS_DIR: tempDirFor('reading-reports'),
  });
  const scored: Scored[] = [];
  try {
    const task = loadTaskFile(path.join(tasksDir, `${TASK}.json`));
    const runId = `reading-${Date.now()}`;
    for (const slug of slugs) {
      server.setScript(TASK, slug, script());
      const context = await browser.newContext(CONTEXT_OPTIONS);
      try {
        const row = { sample_id: slug, url: `${WIDGETS}/${slug}` };
        const session = await SampleSession.prepare({
          task,
          sample: { sample_id: slug, row, line: 2, source: 'bench' },
          context,
          page: await context.newPage(),
          runId,
          attempt: 0,
          deciderMode: 'model',
          dir: path.join(process.env.AGENT_REPORTS_DIR!, TASK, slug),
        });
        const result = await session.run();
        scored.push({ slug, status: result.status, ...score(ARTICLE_TRUTH[slug]!, result.extracted as never) });
      } finally {
        await context.close();
      }
    }
    for (const error of server.errors) console.log(`model server: ${error}`);
    if (dump) fs.writeFileSync(dump, JSON.stringify(server.requests, null, 1));
  } finally {
    await browser.close();
    await server.close();
    await sites.close();
  }
  printScore(scored);
}

function printScore(scored: readonly Scored[]): void {
  console.log(`| article | status | ${FIELDS.join(' | ')} |`);
  console.log(`|---|---|${FIELDS.map(() => '---').join('|')}|`);
  for (const s of scored) {
    const cells = FIELDS.map(field => `${s.right[field] ? '✓' : '✗'} ${JSON.stringify(s.got[field] ?? null)} (${s.sources[field]})`);
    console.log(`| ${s.slug} | ${s.status} | ${cells.join(' | ')} |`);
  }
  const right = scored.reduce((sum, s) => sum + FIELDS.filter(field => s.right[field]).length, 0);
  console.log(`\ngoal: ${right}/${scored.length * FIELDS.length} fields right on ${scored.length} articles`);
}

runBench(benchCommand);
