import { expect, test } from '@playwright/test';
import * as path from 'node:path';
import { discoverTask } from '../../../agent/discover/discover-samples';
import { loadTaskFile } from '../../../agent/task/load-task';
import { discoveryScript, loadMoreScript } from '../../../fixtures/model-scripts/discovery';
import { useScriptedModel } from '../helpers/agent-env';
import { acmeMembers, MEMBERS_URL, orgMembersTasksDir, readCsv } from './helpers';
import { SITE } from '../helpers/sites';

test.setTimeout(90_000);

/** A member's link as the page state prints it: → /people/<login>. */
const MEMBER_HREF = /^\/people\/[^/?#]+$/;

const model = useScriptedModel();

test('the model pages through the listing with save_progress; items are checked against the page, invented ones refused', async () => {
  const members = await acmeMembers();
  // Model-only discovery, as the planner writes it: no locators, the model reports each member's login.
  const tasks = orgMembersTasksDir({}, { item_link: undefined, next: undefined, record_from: {}, max_items: 60 });
  const task = loadTaskFile(path.join(tasks, 'org_members.json'));
  // The model saves the member links each page state shows (ada's by the text of her link) and follows "Next":
  // the ids checked against the site's members below went through the prompt.
  model.server.setScript(
    'org_members',
    '_discovery',
    discoveryScript({
      itemHref: MEMBER_HREF,
      next: { role: 'link', name: 'Next' },
      record: href => ({ username: href.split('/').pop()! }),
      byText: ['/people/ada'],
      invented: '/people/nobody',
    }),
  );

  const report = await discoverTask(task, { runId: 'model-discovery', decider: 'model' });
  expect(model.server.errors).toEqual([]);
  expect(report).toMatchObject({ decider: 'model', items: 60, complete: true, stop_reason: 'max_items (60) reached' });
  expect(report.pages.map(p => [p.page_number, p.new_items])).toEqual([
    [1, 25],
    [2, 25],
    [3, 10],
  ]);

  const rows = readCsv(report.samples_file);
  expect(rows.map(r => r.sample_id)).toEqual(members.slice(0, 60));
  expect(rows.find(r => r.sample_id === 'ada')).toMatchObject({
    url: `${SITE.people}/people/ada`,
    username: 'ada',
    discovered_page: '1',
    discovered_from: MEMBERS_URL,
  });
  expect(rows[59]).toMatchObject({ discovered_page: '3', discovered_from: `${SITE.people}/orgs/acme/members?page=3` });

  const turns = model.server.requests.filter(r => r.kind === 'decider' && r.key?.taskId === 'org_members');
  // save, Next, save, Next, save: the cap ends discovery without another model call.
  expect(turns).toHaveLength(5);
  const system = turns[0]!.system.map(b => b.text).join('\n');
  expect(system).toContain('An item is: a member of the organisation');
  expect(system).toContain('save_progress({"data": {"items": [{"url": "<the item link\'s target exactly as shown after → in the page state>"}');
  expect(system).toContain(`"username": the member's login`);
  expect(turns[0]!.key, 'the discovery sample is named in the request headers').toEqual({
    taskId: 'org_members',
    sampleId: '_discovery',
    attempt: '0',
  });
  expect(turns[0]!.lastUserText).toMatch(/\[e\d+\] link "Next" → \/orgs\/acme\/members\?page=2/);
  expect(turns[1]!.lastUserText).toContain('25 new item(s) recorded, 25 in total; 1 not recorded — /people/nobody is not a link on this page');
});

test('"load more" with the model: items it puts in done instead of saving are checked and saved too', async () => {
  const members = await acmeMembers();
  const tasks = orgMembersTasksDir(
    {},
    { start_url: `${SITE.people}/orgs/acme/members-more`, item_link: undefined, next: undefined, mode: 'load_more', max_items: 40 },
  );
  const task = loadTaskFile(path.join(tasks, 'org_members.json'));
  // The model saves the member links shown, clicks "Load more" and reports the links that appear in done.
  model.server.setScript('org_members', '_discovery', loadMoreScript({ itemHref: MEMBER_HREF, more: { role: 'button', name: 'Load more' } }));

  const report = await discoverTask(task, { runId: 'model-load-more', decider: 'model' });
  expect(model.server.errors).toEqual([]);
  expect(report).toMatchObject({ items: 40, complete: true });
  expect(report.pages.map(p => [p.page_number, p.url, p.new_items])).toEqual([
    [1, `${SITE.people}/orgs/acme/members-more`, 25],
    [2, `${SITE.people}/orgs/acme/members-more`, 15],
  ]);
  // username comes from record_from (read from the URL), since the model did not report it.
  expect(readCsv(report.samples_file).map(r => r.username)).toEqual(members.slice(0, 40));
});
