import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Result } from '../../../agent/evidence/result-schema';
import { runNested } from '../helpers/nested-run';
import { tempDir } from '../helpers/temp';
import { acmeMembers, configWithDiscovery, MEMBERS_URL, orgMembersTasksDir, readCsv } from './helpers';
import { SITE } from '../helpers/sites';

// A hang guard: under the full suite on 2 cores this test has taken over two minutes.
test.setTimeout(360_000);

/** Keeps the executed run affordable; the full 137-member discovery is proven in listing-modes.spec.ts. */
const EXECUTED = 4;

test('one command discovers the members, then runs one test per member, each result carrying its provenance; a re-run reuses the list', async () => {
  const reports = tempDir('bwa-discovery-run-');
  const tasks = orgMembersTasksDir();
  const config = configWithDiscovery({ globalSetup: true });
  const env = {
    AGENT_TASKS_DIR: tasks,
    AGENT_REPORTS_DIR: reports,
    AGENT_RUN_ID: 'members',
    AGENT_DECIDER: 'recipe',
    AGENT_DISCOVER_MAX_ITEMS: String(EXECUTED),
    ANTHROPIC_API_KEY: undefined,
  };
  // --no-deps: the judge teardown is not what this is about.
  const args = ['-c', config, '--project=bwa', '--no-deps', '--grep', '@org_members', '--workers=2'];

  const run = await runNested({ args, env });
  expect(run.code, run.output).toBe(0);
  expect(run.output).toContain(`bwa discover org_members: ${EXECUTED} sample(s) from 1 page(s)`);
  expect(run.output).toContain(`${EXECUTED} passed`);

  const taskDir = path.join(reports, 'runs', 'members', 'org_members');
  const samples = readCsv(path.join(taskDir, 'samples.csv'));
  const members = await acmeMembers();
  expect(samples.map(s => s.sample_id)).toEqual(members.slice(0, EXECUTED));
  for (const sample of samples) {
    const result = Result.parse(JSON.parse(fs.readFileSync(path.join(taskDir, sample.sample_id!, 'result.json'), 'utf8')));
    expect(result.status).toBe('done');
    expect(result.input.url).toBe(`${SITE.people}/people/${sample.sample_id}`);
    expect(result.discovery).toEqual({ page_url: MEMBERS_URL, page_number: 1, discovered_at: sample.discovered_at });
    expect(result.artifacts.map(a => a.label)).toEqual(['profile']);
    expect(typeof result.extracted.followers?.value).toBe('number');
  }
  const combined = readCsv(path.join(taskDir, 'combined.csv'));
  expect(combined.map(r => r.status)).toEqual(Array(EXECUTED).fill('done'));
  const csvBefore = fs.readFileSync(path.join(taskDir, 'samples.csv'), 'utf8');
  const browsedBefore = fs.readFileSync(path.join(taskDir, '_discovery', 'action_log.json'), 'utf8');

  const again = await runNested({ args, env: { ...env, AGENT_DISCOVER_MAX_ITEMS: '50' } });
  expect(again.code, again.output).toBe(0);
  expect(again.output).toContain(`bwa discover org_members: reusing ${EXECUTED} discovered sample(s) of run members`);
  expect(fs.readFileSync(path.join(taskDir, 'samples.csv'), 'utf8')).toBe(csvBefore);
  expect(fs.readFileSync(path.join(taskDir, '_discovery', 'action_log.json'), 'utf8')).toBe(browsedBefore);
  // Done in the first invocation: reported again as resumed, not run.
  expect(again.output).toContain(`${EXECUTED} passed`);
  expect(again.output.match(/org_members\/\S+ done \(resumed\)/g)).toHaveLength(EXECUTED);
});

test('--list skips globalSetup: a task whose samples are not discovered yet lists one placeholder, no crash, no browsing', async () => {
  const reports = tempDir('bwa-discovery-list-');
  const listed = await runNested({
    args: ['-c', configWithDiscovery({ globalSetup: true }), '--project=bwa', '--no-deps', '--list', '--grep', '@org_members'],
    env: { AGENT_TASKS_DIR: orgMembersTasksDir(), AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: 'listing' },
  });
  expect(listed.code, listed.output).toBe(0);
  expect(listed.output).toContain('org_members › samples not discovered yet');
  expect(listed.output).toContain('Total: 1 test in 1 file');
  expect(listed.output).not.toContain('bwa discover');
  expect(fs.existsSync(path.join(reports, 'runs', 'listing', 'org_members', 'samples.csv'))).toBe(false);
});

test('without globalSetup (UI mode, editors) the placeholder is skipped with a message saying how to discover', async () => {
  const run = await runNested({
    args: ['-c', configWithDiscovery({ globalSetup: false }), '--project=bwa', '--no-deps', '--grep', '@org_members', '--reporter=json'],
    env: { AGENT_TASKS_DIR: orgMembersTasksDir(), AGENT_REPORTS_DIR: tempDir('bwa-discovery-nosetup-'), AGENT_RUN_ID: 'nosetup' },
  });
  expect(run.code, run.output).toBe(0);
  const report = JSON.parse(run.output.slice(run.output.indexOf('{')));
  const [spec] = report.suites[0].suites[0].specs;
  expect(spec.title).toBe('samples not discovered yet');
  const [result] = spec.tests[0].results;
  expect(result.status).toBe('skipped');
  expect(spec.tests[0].annotations).toContainEqual(
    expect.objectContaining({ type: 'skip', description: expect.stringContaining('npx bwa discover org_members') }),
  );
});
