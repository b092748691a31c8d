/**
 * Reading like an auditor, scored: headline, author, publication date and site name on the widget lab's articles
 * (fr, de, es, ja, it, pt and English with a time zone, a relative date, an updated date, an avatar byline, a release
 * title and hidden content; each family of metadata; bylines dated with a weekday, dots, CJK, no year, and against
 * their metadata), decided by the scripted model from the page state bwa sends — never from the truth — through the
 * real loop, SDK and evidence. Each field is right when result.json holds the page's value.
 *
 * Usage: npx tsx bench/reading/run.ts [--only article-fr,article-de] [--dump file.json]
 *        npx tsx bench/reading/run.ts --real-pages ../shared/corpora/article-pages [--limit N]   (real-pages.ts)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startModelServer } from '../../fixtures/model-server';
import { ensureFixtureSites } from '../../fixtures/serve';
import { ARTICLE_TRUTH, type ArticleTruth } from '../../fixtures/sites/widgets/cases/articles';
import { SampleSession } from '../../agent/session';
import { CONTEXT_OPTIONS, launchChromium } from '../lib/browser';
import { defineCommand, type OptionValues } from '../../agent/cli/command';
import { runBench } from '../lib/command';
import { readRealPages } from './real-pages';
import { readingScript } from './script';
import { scriptedTask } from './scripted-task';

const TASK = 'article_facts';
const FIELDS = ['headline', 'author', 'published', 'site_name'] as const;
const WIDGETS = 'http://127.0.0.1:4102';

function taskSpec() {
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

interface Scored {
  slug: string;
  status: string;
  right: Record<string, boolean>;
  got: Record<string, unknown>;
  sources: Record<string, string>;
  /** The published date was read from more than one place: how many, and whether the record says they disagree. */
  dateReads: number;
  flagged: boolean;
}

type Extracted = Record<
  string,
  { value: unknown; provenance: { source: string; key?: string }; reads?: Array<{ value: unknown }>; disagreement?: unknown }
>;

/**
 * A field is right when result.json holds the page's value. Where the page's metadata contradicts the date it shows,
 * no one value is right: the record must hold both and flag the sample for review.
 */
function score(truth: ArticleTruth, status: string, extracted: Extracted): Omit<Scored, 'slug' | 'status'> {
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
  const dates = extracted.published;
  const flagged = Boolean(dates?.disagreement) && status === 'needs_review';
  if (truth.published_in_metadata) {
    const values = (dates?.reads ?? []).map(read => read.value);
    right.published = flagged && values.includes(truth.published) && values.includes(truth.published_in_metadata);
  }
  return { right, got, sources, dateReads: dates?.reads?.length ?? (dates ? 1 : 0), flagged };
}

const benchCommand = defineCommand({
  program: 'npx tsx',
  name: 'bench/reading/run.ts',
  summary: "Headline, author, publication date and site name on the widget lab's articles, with the scripted model",
  options: {
    only: { type: 'string', placeholder: 'slugs', help: 'the articles to read, comma-separated (default: all)' },
    dump: { type: 'string', placeholder: 'file', help: 'write the requests the model server saw to this JSON file' },
    'real-pages': {
      type: 'string',
      placeholder: 'dir',
      help: 'read author and date on saved real pages, scored against their metadata (real-pages.ts)',
    },
    limit: { type: 'string', placeholder: 'N', help: 'with --real-pages: the first N pages only' },
  },
  positionals: [],
  run: async ({ options }) => {
    await main(options);
    return 0;
  },
});

async function main({ only: onlyList, dump, 'real-pages': realPages, limit }: OptionValues<typeof benchCommand.options>): Promise<void> {
  if (realPages) {
    const browser = await launchChromium();
    try {
      await readRealPages(browser, realPages, limit ? Number(limit) : undefined);
    } finally {
      await browser.close();
    }
    return;
  }
  const only = onlyList?.split(',');
  const slugs = Object.keys(ARTICLE_TRUTH).filter(slug => !only || only.includes(slug));
  const sites = await ensureFixtureSites({ only: ['widgets'] });
  const server = await startModelServer();
  const browser = await launchChromium();
  const task = scriptedTask(taskSpec(), server.url);
  const scored: Scored[] = [];
  try {
    const runId = `reading-${Date.now()}`;
    for (const slug of slugs) {
      server.setScript(TASK, slug, readingScript(TASK));
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
        scored.push({ slug, status: result.status, ...score(ARTICLE_TRUTH[slug]!, result.status, result.extracted as Extracted) });
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
  console.log(`| article | status | ${FIELDS.join(' | ')} | date reads |`);
  console.log(`|---|---|${FIELDS.map(() => '---').join('|')}|---|`);
  for (const s of scored) {
    const cells = FIELDS.map(field => `${s.right[field] ? '✓' : '✗'} ${JSON.stringify(s.got[field] ?? null)} (${s.sources[field]})`);
    console.log(`| ${s.slug} | ${s.status} | ${cells.join(' | ')} | ${s.dateReads}${s.flagged ? ', disagree: flagged' : ''} |`);
  }
  const right = scored.reduce((sum, s) => sum + FIELDS.filter(field => s.right[field]).length, 0);
  const done = scored.filter(s => s.status === 'done').length;
  const twice = scored.filter(s => s.dateReads > 1).length;
  console.log(`\ngoal: ${right}/${scored.length * FIELDS.length} fields right on ${scored.length} articles; ${done} done`);
  console.log(`published read from two places on ${twice} articles; disagreement flagged for review on ${scored.filter(s => s.flagged).length}`);
}

runBench(benchCommand);
