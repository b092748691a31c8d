import { expect, test } from '../../../agent/fixture';
import { EvidenceStore } from '../../../agent/evidence/store';
import type { RecordedRequest } from '../../../fixtures/model-server';
import type { RepoTruth } from '../../../fixtures/sites/audit/truth';
import { bundledTask, sampleOf, useScriptedModel } from '../helpers/agent-env';
import {
  AUDIT_URL,
  auditTruth,
  deciderTurns,
  openNthPr,
  readSampleJson,
  readShownTitle,
  repoTruth,
  section,
  stateShownPr,
  stepOf,
} from '../workflows/audit-env';

/** Recovery and run state in real scripted runs: what the monitor notices shows up in the next request. */

const model = useScriptedModel();
let anvil: RepoTruth;

test.beforeAll(async ({ request }) => {
  anvil = repoTruth(await auditTruth(request), 'acme/anvil');
});

/** The chain task with the judgment and item requirements off, its output the PR title these runs read: they are about the loop, not the audit. */
const looseTask = (overrides: Record<string, unknown> = {}) =>
  bundledTask('pr_audit_chain', {
    required_fields: [],
    required_artifacts: [],
    judgment_required: false,
    expected_items: null,
    output_schema: { pr_title: 'string' },
    ...overrides,
  });
const sample = (id: string) => sampleOf({ sample_id: id, owner: 'acme', repo: 'anvil' });
const notices = (r: RecordedRequest) => section(r, 'Notices') ?? '';
const openFirstPr = () => openNthPr(0);

test('run state: a failed URL, a target blocked after 2 failures, the visible elements after 3 failures, an exhausted page (its saved heading, stated by the script, shown as collected)', async ({
  agent,
}) => {
  const pr = anvil.recent_merged[0]!;
  model.server.setScript('pr_audit_chain', 'state', {
    steps: [
      { tool: 'goto', args: { url: `${AUDIT_URL}/acme/anvil/pull/999` } },
      { tool: 'click', target: { raw: 'e999' } },
      { tool: 'click', target: { raw: 'e999' } },
      { tool: 'goto', args: { url: `${AUDIT_URL}/acme/anvil/pulls?state=merged` } },
      openFirstPr(),
      stateShownPr('PR 1 saved'),
      { tool: 'done', args: { extracted: {} } },
    ],
  });
  const result = await agent.run(looseTask(), sample('state'));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  const turns = deciderTurns(model.server.requests, 'state');
  const at = (step: number) => turns.find(t => stepOf(t) === step)!;
  expect(section(at(4), 'Run state')).toContain('FAILED URLs (skip these): 127.0.0.1:4108/acme/anvil/pull/999');
  expect(section(at(4), 'Run state')).not.toContain('BLOCKED');
  expect(section(at(5), 'Run state')).toContain('BLOCKED targets (failed twice — do not retry): click e999');
  // Three failures in a row: the model is shown what it can act on instead.
  expect(section(at(4), 'Visible interactive elements')).toBeUndefined();
  expect(section(at(5), 'Visible interactive elements (your last actions failed — pick another way)')).toMatch(/\[(?:f\d+)?e\d+\] link "Go home"/);
  expect(section(at(6), 'Visible interactive elements')).toBeUndefined();
  expect(section(at(8), 'Run state')).toContain(`Exhausted pages (data already saved): 127.0.0.1:4108/acme/anvil/pull/${pr.number}`);
  expect(section(at(8), 'Data collected so far')).toContain(pr.title);
});

test('stagnation on one page escalates: nudge at 3, demand + checkpoint at 5, only done|fail at 8; the loop notice at 3 repeats', async ({
  agent,
}) => {
  const pr = anvil.recent_merged[0]!;
  // Read from the heading the page state prints, so the title checked below went through the prompt.
  const readTitle = readShownTitle();
  model.server.setScript('pr_audit_chain', 'stuck', {
    steps: [openFirstPr(), ...Array(9).fill(readTitle), { tool: 'done', args: { extracted: {} } }],
  });
  const checkpoints: number[] = [];
  // oxlint-disable-next-line typescript/unbound-method -- the original method, called with .call(this) and put back below
  const write = EvidenceStore.prototype.writeJson;
  EvidenceStore.prototype.writeJson = function (this: EvidenceStore, name: string, value: unknown) {
    if (name === 'checkpoint.json' && this.dir.endsWith('stuck')) checkpoints.push((value as { step: number }).step);
    return write.call(this, name, value);
  };
  let result;
  try {
    result = await agent.run(looseTask(), sample('stuck'));
  } finally {
    EvidenceStore.prototype.writeJson = write;
  }
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  expect(result.extracted.pr_title!.value).toBe(pr.title);
  const turns = deciderTurns(model.server.requests, 'stuck');
  const firstWith = (text: string) => turns.filter(t => notices(t).includes(text)).map(stepOf);
  // Step 3 read the title (new data); steps 4-11 read it again on an unchanged page.
  // The notice names the target and what stayed the same.
  expect(firstWith('3 times on this page and it stayed exactly as it was (same URL, text, values and states)')).toEqual([6]);
  expect(notices(turns.find(t => stepOf(t) === 6)!)).toContain('You have taken the same action (extract heading "');
  expect(firstWith('The page has not changed for 3 steps')).toEqual([7]);
  expect(firstWith('CHANGE YOUR STRATEGY NOW: 5 steps')).toEqual([9]);
  expect(firstWith('8 steps without progress: you MUST call done (with what you have) or fail now')).toEqual([12]);
  // Every logged action is on disk at once; level 2 wrote a checkpoint of its own at step 8, finish one more at 12.
  expect(checkpoints).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 8, 9, 10, 11, 12, 12]);
  // Level 3: from then on only done and fail are accepted (said in the prompt); the tools themselves stay
  // byte-identical on every turn, since they open the cached prefix.
  expect(turns.every(t => t.tools.length > 10 && JSON.stringify(t.tools) === JSON.stringify(turns[0]!.tools))).toBe(true);
  expect(turns.filter(t => stepOf(t) >= 12).map(t => t.lastUserText.includes('LAST STEP: only done or fail are available now.'))).toEqual([true]);
});

test('spam: a fourth scroll on the same page without new data leaves only done and fail', async ({ agent }) => {
  const scroll = { tool: 'scroll', args: { direction: 'down' } };
  model.server.setScript('pr_audit_chain', 'spam', {
    steps: [openFirstPr(), scroll, scroll, scroll, scroll, { tool: 'fail', args: { reason: 'nothing more to read here' } }],
  });
  await expect(agent.run(looseTask(), sample('spam'))).rejects.toThrow(/spam: failed — nothing more to read here/);
  expect(model.server.errors).toEqual([]);
  const turns = deciderTurns(model.server.requests, 'spam');
  const last = turns.at(-1)!;
  expect(stepOf(last)).toBe(7);
  expect(notices(last)).toContain(
    'STOP: 4 scroll actions on this page left it exactly as it was (same URL, text, values and states) and brought no new data. Only done and fail are available now',
  );
  expect(last.lastUserText).toContain('LAST STEP: only done or fail are available now.');
  expect(turns.every(t => t.tools.includes('scroll') && JSON.stringify(t.tools) === JSON.stringify(last.tools))).toBe(true);
  expect(readSampleJson('pr_audit_chain', 'spam', 'result.json').status).toBe('failed');
});

test('budget: "Next" grants 3 steps, warnings at 75% and 90% of the new budget fire once each, the last step offers done|fail', async ({ agent }) => {
  // Page 2 of the merged list holds the older PRs: the first one printed there is opened.
  model.server.setScript('pr_audit_chain', 'budget', {
    steps: [
      { tool: 'click', target: { role: 'link', name: 'Next' } },
      openNthPr(0),
      stateShownPr('an older PR'),
      { tool: 'click', target: { role: 'link', name: 'Files changed' } },
      { tool: 'go_back', args: {} },
      { tool: 'go_back', args: {} },
      { tool: 'click', target: { role: 'link', name: 'Previous' } },
      { tool: 'screenshot', args: { label: 'merged-list' } },
      openNthPr(1),
      stateShownPr('PR 2'),
      { tool: 'click', target: { role: 'link', name: 'Checks' } },
      { tool: 'go_back', args: {} },
      { tool: 'go_back', args: {} },
      { tool: 'done', args: { extracted: { total_audited: 2 } } },
    ],
  });
  const result = await agent.run(looseTask({ max_steps: 12 }), sample('budget'));
  expect(model.server.errors).toEqual([]);
  expect(result.status).toBe('done');
  const turns = deciderTurns(model.server.requests, 'budget');
  expect(turns[0]!.lastUserText).toContain('**Step 2 of 12 — 10 remaining**');
  expect(turns[1]!.lastUserText).toContain('**Step 3 of 15 — 12 remaining**');
  expect(notices(turns[1]!)).toContain('Pagination detected: +3 steps (budget now 15).');
  const firing = (text: string) => turns.filter(t => notices(t).includes(text)).map(stepOf);
  expect(firing('75% of the step budget is used')).toEqual([12]);
  expect(firing('URGENT: 90% of the step budget is used')).toEqual([14]);
  const last = turns.at(-1)!;
  expect(stepOf(last)).toBe(15);
  expect(last.lastUserText).toContain('LAST STEP: only done or fail are available now.');
  // The tools stay byte-identical on every turn (they open the cached prefix); the last step is said in the prompt.
  expect(turns.every(t => JSON.stringify(t.tools) === JSON.stringify(last.tools) && t.tools.includes('click'))).toBe(true);
});
