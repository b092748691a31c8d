/**
 * Reading mode over saved real article pages (`--real-pages`): the scripted model reads the author and the published
 * date from the page state's document section (and the date the byline shows, when the page state has one), through
 * the real loop, SDK and evidence. Each is scored against what the page's metadata holds, read from its HTML by the
 * perception bench's own reference (bench/perception/metadata-reference.ts), never by bwa's collector.
 */
import * as path from 'node:path';
import type { Browser } from '@playwright/test';
import { startModelServer, type ScriptInput } from '../../fixtures/model-server';
import type { PromptView, ScriptStepInput } from '../../fixtures/model-server/script-schema';
import { installEvaluateShim } from '../../agent/browser/evaluate-shim';
import type { ExtractedField, Result } from '../../agent/evidence/result-schema';
import { SampleSession } from '../../agent/session';
import { CONTEXT_OPTIONS } from '../lib/browser';
import { offlineOnly, readCorpus, readPageHtml, serveCorpus } from '../perception/corpus';
import { dateKey, metadataReference, norm, type MetadataReference } from '../perception/metadata-reference';
import { author, dateReads } from './script';
import { scriptedTask } from './scripted-task';

const TASK = 'article_metadata';

function taskSpec(host: string) {
  return {
    task_id: TASK,
    start_url: '{{url}}',
    system_prompt: 'You are a browser agent reading news articles for an archive, recording where each value came from.',
    goal: 'Read the article author and its publication date (YYYY-MM-DD).',
    output_schema: { author: 'string | null', published: 'string | null' },
    read_values: true,
    allowed_domains: [host],
    max_steps: 4,
    max_time_seconds: 90,
  };
}

function script(): ScriptInput {
  return {
    description: `${TASK}: author and date from the page state`,
    steps: [
      {
        what: "read the author and the date, the document section's and the byline's",
        decide: (view: PromptView) => {
          const dates = dateReads(view);
          return { batch: [author(view), dates.first, ...(dates.second ? [dates.second] : [])] } as ScriptStepInput;
        },
      },
      { tool: 'done', args: { extracted: {} } },
    ],
    on_unmatched: 'canned',
  } as ScriptInput;
}

type Outcome = 'read' | 'other value' | 'not read' | 'absent';
interface PageScore {
  id: string;
  status: string;
  author: Outcome;
  published: Outcome;
  dateReads: number;
  disagree: boolean;
}

function readsOf(field: ExtractedField | undefined): ExtractedField[] {
  if (!field) return [];
  return field.reads?.length ? field.reads : [field];
}

/** Read from what the page says about itself (a document line: it has a key) and equal to what the metadata holds. */
function outcome(field: ExtractedField | undefined, has: boolean, matches: (value: string) => boolean): Outcome {
  if (!has) return 'absent';
  const fromDocument = readsOf(field).filter(read => read.provenance.key !== undefined && typeof read.value === 'string');
  if (!fromDocument.length) return 'not read';
  return fromDocument.some(read => matches(read.value as string)) ? 'read' : 'other value';
}

function score(id: string, result: Result, reference: MetadataReference): PageScore {
  const authors = reference.authors.map(norm).filter(Boolean);
  const dates = new Set(reference.published);
  const date = result.extracted.published;
  return {
    id,
    status: result.status,
    author: outcome(result.extracted.author, authors.length > 0, value => {
      const got = norm(value);
      return got.length > 1 && authors.some(name => name === got || name.includes(got) || got.includes(name));
    }),
    published: outcome(date, dates.size > 0, value => dates.has(dateKey(value) ?? value)),
    dateReads: readsOf(date).length,
    disagree: Boolean(date?.disagreement),
  };
}

export async function readRealPages(browser: Browser, dir: string, limit: number | undefined): Promise<void> {
  const corpus = readCorpus(dir).slice(0, limit);
  const corpusServer = await serveCorpus(dir);
  const server = await startModelServer();
  const task = scriptedTask(taskSpec(new URL(corpusServer.origin).host), server.url);
  const scores: PageScore[] = [];
  try {
    const runId = `reading-real-${Date.now()}`;
    for (const [index, entry] of corpus.entries()) {
      server.setScript(TASK, entry.id, script());
      const context = await browser.newContext(CONTEXT_OPTIONS);
      try {
        await offlineOnly(context, corpusServer.origin);
        await installEvaluateShim(context);
        const row = { sample_id: entry.id, url: corpusServer.urlOf(entry.id) };
        const page = await context.newPage();
        const session = await SampleSession.prepare({
          task,
          sample: { sample_id: entry.id, row, line: index + 2, source: 'bench' },
          context,
          page,
          runId,
          attempt: 0,
          deciderMode: 'model',
          learn: false,
          dir: path.join(process.env.AGENT_REPORTS_DIR!, TASK, entry.id),
        });
        const result = await session.run();
        // A saved page that leaves for its site's address (Chrome's error page offline) says nothing to score.
        const left = page.url().startsWith('chrome-error:');
        scores.push(score(entry.id, result, left ? { titles: [], authors: [], published: [] } : metadataReference(readPageHtml(dir, entry.id))));
        const last = scores.at(-1)!;
        console.error(
          `${index + 1}/${corpus.length} ${entry.id.slice(0, 10)} ${last.status} author ${last.author}, published ${last.published}${last.disagree ? ' (reads disagree)' : ''}`,
        );
      } finally {
        await context.close();
      }
    }
  } finally {
    await server.close();
    await corpusServer.close();
  }
  printScores(scores);
}

function printScores(scores: readonly PageScore[]): void {
  for (const kind of ['author', 'published'] as const) {
    const counted = scores.filter(s => s[kind] !== 'absent');
    const read = counted.filter(s => s[kind] === 'read').length;
    const other = counted.filter(s => s[kind] === 'other value');
    const pct = ((100 * read) / Math.max(1, counted.length)).toFixed(1);
    console.log(
      `${kind}: read from the document section and equal to the page's metadata on ${read}/${counted.length} pages whose metadata has one (${pct}%); another value on ${other.length}; not read on ${counted.length - read - other.length}`,
    );
    for (const s of counted.filter(s => s[kind] !== 'read').slice(0, 6)) console.log(`  ${s[kind]} ${s.id.slice(0, 12)}`);
  }
  const twice = scores.filter(s => s.dateReads > 1);
  console.log(
    `published read from two places (the document section and the byline) on ${twice.length} pages; the reads disagree (flagged for review) on ${twice.filter(s => s.disagree).length}`,
  );
  const statuses = new Map<string, number>();
  for (const s of scores) statuses.set(s.status, (statuses.get(s.status) ?? 0) + 1);
  console.log(`statuses: ${[...statuses].map(([status, n]) => `${status} ${n}`).join(', ')}`);
}
