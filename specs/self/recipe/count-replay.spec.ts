import { expect, test } from '@playwright/test';
import { bundledTask, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { runSampleAlone } from './helpers';

/** A count read by a recipe lands in result.json as a read, with the rule it followed and every element it counted. */

const WIDGETS = 'http://127.0.0.1:4102';
useScriptedModel();

test("a recipe's count of a list's items and a table's data rows: the value, what was counted, each element by CSS path and text", async ({
  browser,
}) => {
  const task = bundledTask('people_profile', {
    task_id: 'revision_count',
    description: 'How many revisions and releases a page lists.',
    start_url: `${WIDGETS}/revision-history`,
    system_prompt: 'Count the revisions and the releases.',
    goal: 'Extract revisions and releases.',
    input_schema: {},
    output_schema: { revisions: 'integer', releases: 'integer' },
    required_fields: ['revisions', 'releases'],
    required_artifacts: [],
    read_values: true,
    allowed_domains: ['127.0.0.1:4102'],
    web_servers: [{ command: 'npx tsx fixtures/serve.ts widgets', url: `${WIDGETS}/health` }],
    recipe: [
      { action: 'extract', field: 'revisions', target: { role: 'list', name: 'Revisions' }, count: true },
      { action: 'extract', field: 'releases', target: { role: 'table', name: 'Releases' }, count: true },
      { action: 'done', extracted: {} },
    ],
  });
  const result = await runSampleAlone(browser, task, sampleOf({ sample_id: 'page' }), 'recipe');
  expect([result.status, result.error]).toEqual(['done', null]);
  const { revisions, releases } = result.extracted;
  expect([revisions!.value, releases!.value]).toEqual([7, 5]);
  expect(revisions!.provenance).toMatchObject({ source: 'dom', locator: 'list "Revisions"', rule: 'count of the items of list "Revisions"' });
  expect(revisions!.provenance.parts?.map(part => part.locator)).toEqual(
    Array.from({ length: 7 }, (_, i) => `css=#history > li:nth-of-type(${i + 1})`),
  );
  expect(releases!.provenance.parts?.map(part => part.preview.split(' ')[0])).toEqual(['2.4.0', '2.3.1', '2.3.0', '2.2.0', '2.1.0']);
});
