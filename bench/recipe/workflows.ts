import type { Browser } from '@playwright/test';
import type { ScriptInput } from '../../fixtures/model-server';
import { blameMaterialityScript } from '../../fixtures/model-scripts/blame-materiality';
import type { BlameTruth } from '../../fixtures/sites/codehost/truth';
import { checksVisionAnswer, commitAuditScript, verdict } from '../../fixtures/model-scripts/commit-audit';
import { COMMIT_AUDIT_FACTS, type CommitAuditTruth } from '../../fixtures/sites/codehost/truth';
import { hrFormScript } from '../../fixtures/model-scripts/hr-form';
import { peopleEnrichmentScript } from '../../fixtures/model-scripts/people-enrichment';
import type { EnrichmentTruth } from '../../fixtures/sites/peoplesearch/lookups';
import { peopleProfileScript } from '../../fixtures/model-scripts/people-profile';
import type { PersonTruth } from '../../fixtures/sites/people/truth';
import { trackerTicketScript } from '../../fixtures/model-scripts/tracker-tickets';
import type { TicketTruth } from '../../fixtures/sites/tracker/truth';
import type { Hire } from '../../fixtures/sites/hr/hires';
import type { HireTruth } from '../../fixtures/sites/hr/truth';
import { PEOPLESEARCH_ENV } from '../../fixtures/sites/peoplesearch/credentials';
import { signIn } from '../../agent/setup/sign-in';
import { loadAuthProfile } from '../../agent/task/auth-profile';

type Row = Record<string, string>;

/**
 * What the recipe benchmark needs to know about a reference workflow: its truth, the scripted model's answers
 * for one sample (the fixtures' own generators), and which fields are facts a replay must reproduce (judgments
 * and computed fields need the model).
 */
export interface Workflow {
  task: string;
  /** Fetches the site's truth once; returns expected fact fields per sample_id (undefined = the sample has no truth). */
  truth(): Promise<(row: Row) => Record<string, unknown> | undefined>;
  script(row: Row): ScriptInput;
  /** Rows to use when the CSV does not list enough samples (people_profile: 6 in the CSV, 140 on the site). */
  rows?(truth: unknown): Promise<Row[]>;
  /** Signs in (auth_profile tasks) before any sample runs. */
  prepare?(browser: Browser): Promise<void>;
  /**
   * The batch judge's answer for a sample from the fields its prompt carries, when the script's closing turn is
   * worked out from the page (no fixed done to copy). Without it, such a sample gets no batch judgment.
   */
  judgeFromFields?(fields: Record<string, unknown>, screenshots: string[]): { judgment: Record<string, unknown>; fields: Record<string, unknown> };
}

const json = async (url: string) => (await fetch(url)).json();
const pick = (value: Record<string, unknown>, fields: readonly string[]) => Object.fromEntries(fields.map(f => [f, value[f] ?? null]));

let people: Record<string, PersonTruth> = {};
let tickets: Record<string, TicketTruth> = {};
let commits: CommitAuditTruth[] = [];
let blame: Record<string, BlameTruth> = {};
let lookups: Record<string, EnrichmentTruth> = {};
let hires: Record<string, HireTruth> = {};

const ticketOf = (url: string) => /\/issue\/([^/?#]+)/.exec(url)?.[1] ?? '';
const commitOf = (sampleId: string) => commits.find(c => c.commit_sha.startsWith(sampleId));

export const WORKFLOWS: Workflow[] = [
  {
    task: 'people_profile',
    async truth() {
      people = (await json('http://127.0.0.1:4101/__truth.json')).people;
      return row => people[row.username ?? ''] as Record<string, unknown> | undefined;
    },
    script: row => peopleProfileScript(row.username!),
    rows: async () => Object.keys(people).map(username => ({ sample_id: username, username })),
  },
  {
    task: 'tracker_tickets',
    async truth() {
      tickets = (await json('http://127.0.0.1:4103/__truth.json')).tickets;
      return row => {
        const t = tickets[ticketOf(row.url ?? '')];
        return t ? pick(t as unknown as Record<string, unknown>, ['ticket_number', 'title', 'ticket_status', 'assignee', 'due_date']) : undefined;
      };
    },
    script: row => trackerTicketScript({ sample_id: row.sample_id!, url: row.url! }),
  },
  {
    task: 'commit_audit',
    async truth() {
      commits = Object.values((await json('http://127.0.0.1:4104/__truth.json')).commits);
      return row => {
        const t = commitOf(row.sample_id!);
        return t ? pick(t as unknown as Record<string, unknown>, COMMIT_AUDIT_FACTS) : undefined;
      };
    },
    script: row => {
      const t = commitOf(row.sample_id!)!;
      return commitAuditScript(t.commit_sha, checksVisionAnswer(t.checks));
    },
    judgeFromFields(fields, screenshots) {
      const { extracted, judgment } = verdict(fields);
      return { judgment: { ...judgment, confidence: 0.85, evidence_refs: screenshots }, fields: extracted };
    },
  },
  {
    task: 'blame_materiality',
    async truth() {
      blame = (await json('http://127.0.0.1:4104/__truth.json')).blame;
      return row =>
        blame[row.sample_id!]
          ? pick(blame[row.sample_id!] as unknown as Record<string, unknown>, ['file_path', 'last_modified_date', 'author', 'commit_sha'])
          : undefined;
    },
    script: row => blameMaterialityScript(blame[row.sample_id!]!.code),
  },
  {
    task: 'people_enrichment',
    async truth() {
      lookups = (await json('http://127.0.0.1:4106/__truth.json')).lookups;
      return row =>
        lookups[row.sample_id!]
          ? pick(lookups[row.sample_id!] as unknown as Record<string, unknown>, ['profile_url', 'school', 'current_company', 'tenure'])
          : undefined;
    },
    script: row => peopleEnrichmentScript({ name: row.name!, company: row.company! }),
    async prepare(browser) {
      for (const [name, value] of Object.entries(PEOPLESEARCH_ENV)) process.env[name] ??= value;
      await signIn(browser, 'peoplesearch', loadAuthProfile('tasks', 'peoplesearch')!);
    },
  },
  {
    task: 'hr_form',
    async truth() {
      hires = (await json('http://127.0.0.1:4107/__truth.json')).hires;
      return row =>
        hires[row.sample_id!]
          ? pick(hires[row.sample_id!] as unknown as Record<string, unknown>, [
              'form_submitted',
              'reference_number',
              'attachment_count',
              'report_filename',
              'report_downloaded',
            ])
          : undefined;
    },
    script: row => hrFormScript({ hire: row as unknown as Hire }),
  },
];
