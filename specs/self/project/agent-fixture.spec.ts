import * as fs from 'node:fs';
import * as path from 'node:path';
import { expect, test } from '../../../agent/test';
import { Result } from '../../../agent/evidence/result-schema';
import { ATTACHMENT_NAMES } from '../../../agent/report/collect';
import { sha256File } from '../../../agent/evidence/hash';
import { useScriptedModel } from '../helpers/agent-env';
import { SITE, SITE_HOST } from '../helpers/sites';

// The `agent` fixture of bwa/test in a hand-written test, the model deciding: the scripted model reads the page
// state it is sent and answers with the refs it finds there.
const model = useScriptedModel();

/** The task a test of this file becomes: named after the file, each sample after its test's title. */
const TASK = 'agent-fixture';

// Its evidence: values read from the page with their provenance, every file hashed and attached to this test.
test('reads a profile on the test’s own page', async ({ page, agent }, testInfo) => {
  const sample = 'reads_a_profile_on_the_test_s_own_page';
  model.server.setScript(TASK, sample, {
    steps: [
      { tool: 'screenshot', args: { label: 'profile' } },
      { tool: 'extract', target: { role: 'heading', name: 'Ada Lovelace' }, args: { field: 'name', pattern: '^(.+?) ada$' } },
      { tool: 'extract', target: { text: 'London' }, args: { field: 'location' } },
      { tool: 'done', args: { extracted: {} } },
    ],
  });
  await page.goto(`${SITE.people}/people/ada`);
  const run = await agent.run<{ name: string; location: string }>({
    goal: 'Read the person’s name and where they live',
    output: { name: 'string', location: 'string' },
  });

  expect(model.server.errors).toEqual([]);
  expect(run.status, run.error ?? '').toBe('done');
  expect(run.values.name).toBe('Ada Lovelace');
  expect(run.values.location).toBe('London, UK');
  expect(run.provenance.name).toMatchObject({ source: 'dom', url: `${SITE.people}/people/ada` });
  // The start page was the test's own, and the agent stayed on its host.
  expect(run.result.input).toEqual({ sample_id: sample });
  const requests = model.server.requests.filter(r => r.kind === 'decider');
  expect(requests.length).toBe(4);
  expect(requests[0]!.lastUserText).toContain(SITE_HOST.people);

  expect(run.evidenceDir).toBe(path.join(process.env.AGENT_REPORTS_DIR!, 'runs', run.result.run_id, TASK, sample));
  const written = Result.parse(JSON.parse(fs.readFileSync(path.join(run.evidenceDir, 'result.json'), 'utf8')));
  const screenshot = written.artifacts.find(a => a.label === 'profile')!;
  expect(screenshot.sha256).toBe(sha256File(path.join(run.evidenceDir, screenshot.filename)));
  const names = testInfo.attachments.map(a => a.name);
  expect(names).toEqual(
    expect.arrayContaining([`${ATTACHMENT_NAMES.artifactPrefix}${screenshot.filename}`, ATTACHMENT_NAMES.result, ATTACHMENT_NAMES.actionLog]),
  );
});

test('one run per test, and an ask that is not a task is refused before anything runs', async ({ agent }) => {
  await expect(agent.run({ goal: 'x', output: { a: 'string' } })).rejects.toThrow('agent.run needs a startUrl, or a page the test already opened');
  await expect(agent.run({ goal: 'x', output: { a: 'strnig' }, startUrl: `${SITE.people}/people/ada` })).rejects.toThrow(
    /output_schema\.a: "strnig" is not a type/,
  );
});
