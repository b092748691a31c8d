import type { APIRequestContext } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { auditSite } from '../../../fixtures/sites/audit/site';
import type { AuditTruth, ContributorTruth, PrTruth, RepoTruth } from '../../../fixtures/sites/audit/truth';
import { CONTRIBUTOR_FIELDS } from '../../../fixtures/model-scripts/contributor-audit';
import { PR_FIELDS, prHeading, prLinks } from '../../../fixtures/model-scripts/pr-audit-chain';
import type { RecordedRequest } from '../../../fixtures/model-server';
import type { PromptView, ScriptStepInput } from '../../../fixtures/model-server/script-schema';

export const AUDIT_URL = `http://127.0.0.1:${auditSite.port}`;

export async function auditTruth(request: APIRequestContext): Promise<AuditTruth> {
  return (await request.get(`${AUDIT_URL}/__truth.json`)).json();
}

export function repoTruth(truth: AuditTruth, repo: string): RepoTruth {
  const found = truth.repos[repo];
  if (!found) throw new Error(`no truth for ${repo}`);
  return found;
}

/** What a correct audit saves for a pull request / a contributor: the site's truth, to check the agent's reading against. */
export const truePr = (pr: PrTruth): Record<string, unknown> => Object.fromEntries(PR_FIELDS.map(field => [field, pr[field]]));
export const trueContributor = (c: ContributorTruth): Record<string, unknown> =>
  Object.fromEntries(CONTRIBUTOR_FIELDS.map(field => [field, c[field]]));

export function sampleFile(taskId: string, sampleId: string, file: string): string {
  return path.join(process.env.AGENT_REPORTS_DIR!, 'runs', process.env.AGENT_RUN_ID!, taskId, sampleId, file);
}

export function readSampleJson<T = any>(taskId: string, sampleId: string, file: string): T {
  return JSON.parse(fs.readFileSync(sampleFile(taskId, sampleId, file), 'utf8'));
}

/** The decider request that asked for loop step `step` (the script's turn n is loop step n + 1). */
export function deciderTurns(requests: readonly RecordedRequest[], sampleId: string): RecordedRequest[] {
  return requests.filter(r => r.kind === 'decider' && r.key.sampleId === sampleId && r.response.status === 200);
}

export function stepOf(request: RecordedRequest): number {
  const match = /\*\*Step (\d+) of (\d+)/.exec(request.lastUserText);
  if (!match) throw new Error('request without a budget line');
  return Number(match[1]);
}

/** The text of one "## Section" of a decider request, up to the next section. */
export function section(request: RecordedRequest, title: string): string | undefined {
  const text = request.lastUserText;
  const start = text.indexOf(`## ${title}`);
  if (start === -1) return undefined;
  const next = text.indexOf('\n## ', start + 3);
  return text.slice(start, next === -1 ? undefined : next);
}

/** Open the n-th pull request of the merged list as printed (0 = the newest): a choice by order, from the prompt. */
export function openNthPr(n: number): ScriptStepInput {
  return {
    what: `open pull request ${n + 1} of the merged list`,
    decide: (view: PromptView) => {
      const link = prLinks(view)[n];
      if (!link) throw new Error(`the page state shows fewer than ${n + 1} pull request links`);
      return { tool: 'click', target: { ref: link.ref! } };
    },
  };
}

/** extract of the open pull request's title from the heading the page state prints ("<title> #<number>"). */
export function readShownTitle(): ScriptStepInput {
  return {
    what: 'read the title from the pull request heading',
    decide: (view: PromptView) => ({ tool: 'extract', target: { ref: prHeading(view).ref! }, args: { field: 'pr_title', pattern: '^(.*) #\\d+$' } }),
  };
}

/** The number of the open pull request, as its heading prints it. */
export function shownPrNumber(view: PromptView): string {
  return /#(\d+)$/.exec(prHeading(view).name!)![1]!;
}

/**
 * save_progress of the open pull request's heading as the page state prints it — a stated item, not an extract:
 * for tests of what happens to saved data (run state, consolidation), which check it is passed through.
 */
export function stateShownPr(note?: string): ScriptStepInput {
  return {
    what: 'save the pull request heading as shown',
    decide: (view: PromptView) => ({
      tool: 'save_progress',
      args: { data: { prs: [{ heading: prHeading(view).name }] }, ...(note ? { note } : {}) },
    }),
  };
}

/** The data of the sample's save_progress calls as the model sent them: what a pass-through check compares with. */
export function savedByModel(requests: readonly RecordedRequest[], sampleId: string): Array<Record<string, unknown>> {
  return requests
    .filter(r => r.key.sampleId === sampleId && r.response.status === 200)
    .flatMap(r => r.response.toolUses ?? [])
    .filter(u => u.name === 'save_progress')
    .map(u => u.input.data as Record<string, unknown>);
}
