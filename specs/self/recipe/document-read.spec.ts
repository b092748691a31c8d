import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkRecipeSteps } from '../../../agent/recipe/check-steps';
import { compileRecipe } from '../../../agent/recipe/compile';
import { shipValueRules, SHIPPED_VALUES_DIR } from '../../../agent/recipe/shipped-values';
import { specCode } from '../../../agent/recipe/spec-code';
import { SampleSession } from '../../../agent/session';
import type { PromptView, ScriptStepInput } from '../../../fixtures/model-server/script-schema';
import { ARTICLE_TRUTH } from '../../../fixtures/sites/widgets/cases/articles';
import { bundledTask, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { PROJECT_ROOT, runNested } from '../helpers/nested-run';
import { indexRun } from '../../../agent/report/evidence-index';
import { writeRun } from '../../../agent/report/write-run';
import { tempDir } from '../helpers/temp';
import { runSampleAlone, sourceOf, valuesOf, writeExportedSpecConfig } from './helpers';

/**
 * A model reads what an article says about itself from the page state's document section (`[d3] published …`):
 * meta tags, JSON-LD, microdata. The action log records where the page says each fact; the compiled recipe reads
 * it there again with no model, and so does the exported plain spec.
 */

const WIDGETS = 'http://127.0.0.1:4102';
const FIELDS = ['site_name', 'author', 'published'] as const;

const env = useScriptedModel();

const articleTask = (recipe?: unknown[], extra: Record<string, unknown> = {}) =>
  bundledTask('people_profile', {
    task_id: 'article_facts',
    description: 'What each article says about itself.',
    start_url: `${WIDGETS}/{{slug}}`,
    system_prompt: 'Read the article facts from the page.',
    goal: 'Extract site_name, author and published.',
    keywords: ['author', 'published'],
    input_schema: { slug: 'string' },
    output_schema: { site_name: 'string', author: 'string', published: 'date' },
    required_fields: ['site_name', 'author', 'published'],
    required_artifacts: [],
    allowed_domains: ['127.0.0.1:4102'],
    web_servers: [{ command: 'npx tsx fixtures/serve.ts widgets', url: `${WIDGETS}/health` }],
    recipe,
    ...extra,
  });

/** The document section's line for a field, as the first look at a page prints it whole (`[d3] published "…" (…)`). */
function documentRef(view: PromptView, field: string): string {
  const line = view.page.find(candidate => candidate.ref?.startsWith('d') && candidate.role === field);
  if (!line?.ref) throw new Error(`the page state has no document line for ${field}`);
  return line.ref;
}

/** The model reads the three facts from the document section in one turn, each by its line's ref, then finishes. */
const script = {
  steps: [
    {
      what: 'read the article facts from the document section',
      decide: (view: PromptView): ScriptStepInput[] =>
        FIELDS.map(field => ({
          tool: 'extract',
          target: { ref: documentRef(view, field) },
          args: { field, ...(field === 'published' ? { type: 'date' } : {}) },
        })),
    },
    { tool: 'done', args: { extracted: {} } },
  ],
};

for (const [slug, where] of [
  ['article-fr', { site_name: 'meta', author: 'json-ld', published: 'meta' }],
  ['article-pt', { site_name: 'meta', author: 'dom', published: 'dom' }],
  // JSON-LD wrapped in CDATA: the recipe reads again the very key the page state showed.
  ['article-cdata', { site_name: 'meta', author: 'json-ld', published: 'json-ld' }],
] as const) {
  test(`${slug}: reads of the document section (${[...new Set(Object.values(where))].join(', ')}) compile to a recipe that reads the same values again, with no model`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const task = articleTask();
    const sample = sampleOf({ sample_id: slug, slug });
    env.server.setScript('article_facts', slug, script);
    const recorded = await runSampleAlone(browser, task, sample, 'model');
    expect(env.server.errors).toEqual([]);
    expect([recorded.status, recorded.error]).toEqual(['done', null]);
    expect(valuesOf(recorded)).toEqual(Object.fromEntries(FIELDS.map(field => [field, ARTICLE_TRUTH[slug]![field]])));

    // The log says where the page says each fact, as the read found it.
    const source = sourceOf(recorded);
    const reads = source.log.filter(entry => entry.action.name === 'extract');
    expect(reads.map(entry => [entry.action.args.field, entry.document?.source])).toEqual(FIELDS.map(field => [field, where[field]]));
    for (const entry of reads) expect(entry.document?.key).toBe(recorded.extracted[String(entry.action.args.field)]!.provenance.key);

    const compiled = await compileRecipe({
      prepare: options => SampleSession.prepare(options),
      task,
      source,
      browser,
      runId: process.env.AGENT_RUN_ID!,
    });
    const extracts = compiled.steps.filter(step => step.action === 'extract');
    expect(extracts.map(step => [step.field, step.target])).toEqual(
      reads.map(entry => [entry.action.args.field, { document: entry.document!.source, key: entry.document!.key }]),
    );
    expect(Object.values(compiled.fields).map(binding => binding.how)).toEqual(FIELDS.map(() => 'dom'));

    const requests = env.server.requests.length;
    const replay = await runSampleAlone(browser, articleTask(compiled.steps), sample, 'recipe');
    expect([replay.status, replay.decider]).toEqual(['done', 'recipe']);
    expect(valuesOf(replay)).toEqual(valuesOf(recorded));
    expect(env.server.requests.length, 'the replay called no model').toBe(requests);
    // A replay's reads record their place too: a sample the model finishes after a replay compiles again.
    const replayReads = sourceOf(replay).log.filter(entry => entry.action.name === 'extract');
    expect(replayReads.map(entry => entry.document)).toEqual(reads.map(entry => entry.document));

    if (slug !== 'article-fr') return;
    // The exported plain spec reads the same facts the same way (the collector and value rules shipped beside it).
    const outDir = fs.mkdtempSync(path.join(PROJECT_ROOT, 'specs', 'generated', '.test-'));
    try {
      const csv = path.join(outDir, 'articles.csv');
      fs.writeFileSync(csv, `sample_id,slug\n${slug},${slug}\n`);
      const code = specCode({ task: task.spec, steps: compiled.steps, csvFromSpec: 'articles.csv', inputsFromSpec: '.', origin: 'the test' });
      expect(code).toContain("data['published'] = await readFact(tab, 'meta', 'article:published_time', { field: 'published', type: 'date' });");
      fs.writeFileSync(path.join(outDir, 'article_facts.spec.ts'), code);
      shipValueRules(path.join(outDir, SHIPPED_VALUES_DIR));
      writeExportedSpecConfig(outDir, { workers: 1 });
      const run = await runNested({ args: ['--config', path.join(outDir, 'playwright.config.js'), '--reporter=json'] });
      expect(run.code, run.output.slice(-3000)).toBe(0);
      const report = JSON.parse(run.output.slice(run.output.indexOf('{')));
      const result = report.suites[0].suites[0].specs[0].tests[0].results[0];
      const attached = result.attachments.find((a: { name: string }) => a.name === 'extracted.json');
      expect(JSON.parse(Buffer.from(attached.body, 'base64').toString('utf8'))).toEqual(valuesOf(recorded));
    } finally {
      fs.rmSync(outDir, { recursive: true, force: true });
    }
  });
}

test('a fact the page says about itself is read only by extract: a recipe step that clicks one is refused when the task loads, naming the step', () => {
  const task = articleTask([
    { action: 'click', target: { document: 'meta', key: 'og:url' } },
    { action: 'done', extracted: {} },
  ]);
  expect(() => checkRecipeSteps(task)).toThrow(
    'recipe[0].target: a fact the page says about itself ({"document", "key"}) is read only by extract, not click',
  );
});

test('a byline date the metadata contradicts: both reads recorded, the sample goes to review naming each, the evidence index shows them; a rule the author chose settles it instead', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const slug = 'article-date-disagree';
  const recipe = [
    { action: 'extract', field: 'site_name', target: { document: 'meta', key: 'og:site_name' } },
    { action: 'extract', field: 'author', target: { css: '.byline' } },
    { action: 'extract', field: 'published', target: { css: '.dateline' }, type: 'date' },
    { action: 'extract', field: 'published', target: { document: 'meta', key: 'article:published_time' }, type: 'date' },
    { action: 'done', extracted: {} },
  ];
  const sample = sampleOf({ sample_id: slug, slug });
  const reviewed = await runSampleAlone(browser, articleTask(recipe), sample, 'recipe');
  const truth = ARTICLE_TRUTH[slug]!;
  const published = reviewed.extracted.published!;
  expect(reviewed.status).toBe('needs_review');
  expect(published.value, 'the first read stays, not the last').toBe(truth.published);
  expect(published.reads?.map(read => [read.value, read.provenance.source, read.provenance.key ?? read.provenance.locator])).toEqual([
    [truth.published, 'dom', 'css=.dateline'],
    [truth.published_in_metadata, 'meta', 'article:published_time'],
  ]);
  expect(published.disagreement).toMatchObject({ rule: 'review', kept: 0 });
  expect(reviewed.error).toBe(published.disagreement!.note);
  expect(reviewed.error).toContain(
    `"${truth.published}" (dom css=.dateline, step 4) ≠ "${truth.published_in_metadata}" (meta article:published_time, step 5)`,
  );

  const runDir = tempDir('bwa-disagree-');
  const samples = [{ result: reviewed, files: new Map<string, string>(), resumed: false }];
  indexRun(
    runDir,
    writeRun(runDir, reviewed.run_id, samples),
    samples.map(s => ({ ...s, traceSources: [] })),
  );
  const html = fs.readFileSync(path.join(runDir, 'index.html'), 'utf8');
  expect(html).toContain('reads disagree — for review');
  expect(html).toContain(`<li class="kept">${truth.published} <span class="src src-dom">dom</span> <small>dom css=.dateline · step 4</small></li>`);
  expect(html).toContain(
    `<li>${truth.published_in_metadata} <span class="src src-meta">meta</span> <small>meta article:published_time · step 5</small></li>`,
  );

  const settled = await runSampleAlone(browser, articleTask(recipe, { when_reads_disagree: { published: 'metadata' } }), sample, 'recipe');
  expect([settled.status, settled.extracted.published!.value]).toEqual(['done', truth.published_in_metadata]);
  expect(settled.extracted.published!.disagreement).toMatchObject({ rule: 'metadata', kept: 1 });
});
