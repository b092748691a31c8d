import { expect, test } from '../../../agent/fixture';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTaskFile } from '../../../agent/task/load-task';
import { readRunFile, sampleOf, useScriptedModel } from '../helpers/agent-env';
import { tempDir } from '../helpers/temp';
import { SITE, SITE_HOST } from '../helpers/sites';

const model = useScriptedModel();

function task(taskId: string, startPath: string, goal: string) {
  const file = path.join(tempDir(), `${taskId}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      task_id: taskId,
      start_url: `${SITE.widgets}${startPath}`,
      system_prompt: 'You browse a news site.',
      goal,
      output_schema: { section: 'string' },
      required_fields: ['section'],
      allowed_domains: [SITE_HOST.widgets],
    }),
  );
  return loadTaskFile(file);
}

const pageStatesSent = (sampleId: string) =>
  model.server.requests.filter(request => request.kind === 'decider' && request.key.sampleId === sampleId).map(request => request.lastUserText);

type LogEntry = { action: { name: string }; outcome: { success: boolean; description: string }; url_after: string };

test('a link inside a collapsed menu is reached by expanding the menu: the next page state lists it with a ref the model clicks', async ({
  agent,
}) => {
  // Every target is found in the page state the agent sent: the menu's stub line first, then the link it opened.
  model.server.setScript('open_section', 'sport', {
    steps: [
      { tool: 'expand', target: { role: 'banner' } },
      { tool: 'click', target: { role: 'link', name: 'Sport' } },
      { tool: 'extract', target: { role: 'heading', name: 'Not found' }, args: { field: 'section' } },
      { tool: 'done', args: { extracted: {} } },
    ],
  });
  const result = await agent.run(task('open_section', '/banner-headline', 'Open the Sport section.'), sampleOf({ sample_id: 'sport' }));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');

  const states = pageStatesSent('sport');
  expect(states[0]).toMatch(/\[e\d+\] banner \(collapsed: 8 links — "World", "Politics", "Business", …\)/);
  expect(states[0]).not.toContain('link "Sport"');
  expect(states[1]!.slice(states[1]!.lastIndexOf('<page_state>'))).toMatch(/\[e\d+\] link "Sport" → \/section\/sport/);

  const log = JSON.parse(readRunFile('open_section', 'sport', 'action_log.json')) as LogEntry[];
  const names = log.map(entry => entry.action.name);
  expect(names.slice(0, 3)).toEqual(['goto', 'expand', 'click']);
  expect(log[1]!.outcome.description).toMatch(/opened: its 8 links are listed with refs in the next page state/);
  expect(log[1]!.url_after).toBe(`${SITE.widgets}/banner-headline`);
  expect(log[2]!.url_after).toBe(`${SITE.widgets}/section/sport`);
});

test('find searches the whole page, collapsed parts included, and what it finds stays listed for the next step', async ({ agent }) => {
  model.server.setScript('find_privacy', 'privacy', {
    steps: [
      { tool: 'find', args: { text: 'privacy' } },
      { tool: 'click', target: { role: 'link', name: 'Privacy' } },
      { tool: 'extract', target: { role: 'heading', name: 'Not found' }, args: { field: 'section' } },
      { tool: 'done', args: { extracted: {} } },
    ],
  });
  const result = await agent.run(task('find_privacy', '/banner-headline', 'Open the privacy page.'), sampleOf({ sample_id: 'privacy' }));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  const states = pageStatesSent('privacy');
  const pageState = (text: string) => text.slice(text.lastIndexOf('<page_state>'), text.lastIndexOf('</page_state>'));
  expect(pageState(states[0]!)).toMatch(/\[e\d+\] contentinfo \(collapsed: 3 links — "About us", "Contact", "Privacy"\)/);
  expect(pageState(states[0]!)).not.toMatch(/\] link "Privacy"/);
  expect(pageState(states[1]!)).toMatch(/\[e\d+\] contentinfo \(collapsed: 2 links — "About us", "Contact"\)\n \[e\d+\] link "Privacy" → \/privacy/);
  const log = JSON.parse(readRunFile('find_privacy', 'privacy', 'action_log.json')) as LogEntry[];
  expect(log[1]!.outcome.description).toMatch(
    /^Found 1 element\(s\) holding "privacy"; they stay listed in the next page state:\n\[e\d+\] link "Privacy" → \/privacy \(in contentinfo, under "Council approves harbour budget after long debate"\)$/,
  );
  expect(log[2]!.url_after).toBe(`${SITE.widgets}/privacy`);
});
