import { expect, test } from '../../../agent/fixture';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Result } from '../../../agent/evidence/result-schema';
import { bundledTask, sampleOf } from '../helpers/agent-env';
import { tempDir } from '../helpers/temp';
import { SITE, SITE_HOST } from '../helpers/sites';

/**
 * Catalogue: site faults. Each case states the fault (a fixture-site knob) and the expected outcome; the evidence
 * gathered so far (action log, checkpoint, result) is always written.
 */
const CASES: Array<{ fault: string; startUrl: string; expected: Result['status']; error: RegExp; actionTimeout?: number }> = [
  {
    fault: 'HTTP 500 on every attempt',
    startUrl: `${SITE.people}/people/{{username}}?fault=500`,
    expected: 'failed',
    error: /start page failed 3 times: HTTP 500/,
  },
  {
    fault: '429 with Retry-After on every attempt',
    startUrl: `${SITE.people}/people/{{username}}?fault=429`,
    expected: 'failed',
    error: /start page failed: HTTP 429 at .*still rate limited after waiting 2 s/,
  },
  {
    fault: 'connection reset',
    startUrl: `${SITE.people}/people/{{username}}?fault=reset`,
    expected: 'failed',
    error: /start page failed 3 times: .*(ERR_|reset|EMPTY_RESPONSE)/i,
  },
  {
    fault: 'a 30 s response with a 4 s action timeout',
    startUrl: `${SITE.people}/people/{{username}}?fault=slow`,
    expected: 'failed',
    error: /timed out|Timeout/,
    actionTimeout: 4_000,
  },
  { fault: 'an infinite redirect', startUrl: `${SITE.widgets}/redirect-loop`, expected: 'failed', error: /TOO_MANY_REDIRECTS|redirect/i },
  {
    fault: 'a renderer that hangs after load',
    startUrl: `${SITE.people}/people/{{username}}?fault=crash`,
    expected: 'failed',
    error: /timed out|Timeout|crash/i,
    actionTimeout: 4_000,
  },
];

let reports: string;
test.beforeAll(() => {
  reports = tempDir('bwa-site-faults-');
  process.env.AGENT_REPORTS_DIR = reports;
});
test.afterAll(() => {
  delete process.env.AGENT_REPORTS_DIR;
});

for (const [index, c] of CASES.entries()) {
  test.describe(() => {
    if (c.actionTimeout) test.use({ agentActionTimeout: c.actionTimeout });
    test(`site fault: ${c.fault} → ${c.expected}, evidence kept`, async ({ agent }) => {
      test.setTimeout(120_000);
      const task = bundledTask('people_profile', {
        task_id: `fault_${index}`,
        start_url: c.startUrl,
        allowed_domains: [SITE_HOST.people, SITE_HOST.widgets],
      });
      const run = agent.run(task, sampleOf({ sample_id: 'ada', username: 'ada' }));
      if (c.expected === 'failed') await expect(run).rejects.toThrow(/ada: failed/);
      else await run;
      const dir = path.join(reports, 'runs', process.env.AGENT_RUN_ID!, `fault_${index}`, 'ada');
      const result = JSON.parse(fs.readFileSync(path.join(dir, 'result.json'), 'utf8')) as Result;
      expect(result.status).toBe(c.expected);
      expect(result.error).toMatch(c.error);
      const log = JSON.parse(fs.readFileSync(path.join(dir, 'action_log.json'), 'utf8'));
      expect(log.length).toBeGreaterThan(0);
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'checkpoint.json'), 'utf8')).status).toBe(c.expected);
    });
  });
}

test('site fault: a blocking modal over the target → the recipe ends needs_review naming the step, evidence kept', async ({ agent }) => {
  const task = bundledTask('people_profile', {
    task_id: 'fault_modal',
    start_url: `${SITE.widgets}/modal`,
    allowed_domains: [SITE_HOST.widgets],
    required_fields: [],
    required_artifacts: ['before'],
    recipe: [
      { action: 'screenshot', label: 'before' },
      { action: 'click', target: { role: 'button', name: 'Continue to checkout' } },
      { action: 'done', extracted: {} },
    ],
  });
  const result = await agent.run(task, sampleOf({ sample_id: 'modal', username: 'x' }));
  expect(result.status).toBe('needs_review');
  expect(result.error).toMatch(/recipe step 2 \(click ← button "Continue to checkout"\) failed: .*covering it/);
  expect(result.artifacts.map(a => a.filename)).toEqual(['01_before.png']);
});
