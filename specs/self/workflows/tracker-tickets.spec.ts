import { expect, test } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SampleSession } from '../../../agent/session';
import { combinedCsv } from '../../../agent/report/csv';
import type { Result } from '../../../agent/evidence/result-schema';
import type { ModelServer } from '../../../fixtures/model-server';
import { trackerTicketScript } from '../../../fixtures/model-scripts/tracker-tickets';
import type { TicketTruth } from '../../../fixtures/sites/tracker/truth';
import { bundledTask, sampleOf, startScriptedModel } from '../helpers/agent-env';
import { acceptanceSamples, recipeRows, recipeRunInBackground, startRecipeRun, type Row } from '../helpers/recipe-run';
import { tempDir } from '../helpers/temp';
import { BREAK_HEADER } from '../../../fixtures/lib/break-switch';
import { DUE_DATE_HIDDEN_BREAK } from '../../../fixtures/sites/tracker/site';
import { readEnv } from '../../../agent/env/read';
import { SITE } from '../helpers/sites';

const TASK = 'tracker_tickets';
const FIELDS = ['ticket_number', 'title', 'ticket_status', 'assignee', 'due_date'] as const;
const CSV_FILE = path.resolve(__dirname, '../../../tasks/inputs/tracker_tickets.csv');
const TRACKER = SITE.tracker;

/**
 * Special cases for the scripted model: assigned with a due date, unassigned (with and without a due date,
 * and one whose activity names a removed assignee), no due date, the slowest hydration, a transient API
 * error behind a Retry button, and a ref that does not exist. BWA_FULL=1 runs every ticket.
 */
const MODEL_SUBSET = ['ENG-101', 'ENG-104', 'ENG-111', 'ENG-152', 'ENG-133', 'ENG-105-retry', 'ENG-999'];

let truth: Record<string, TicketTruth>;
const recipe = recipeRunInBackground(async () => {
  truth = (await (await fetch(`${TRACKER}/__truth.json`)).json()).tickets;
  // Mostly waiting on hydration. Every unassigned ticket, ticket without a due date and ref that does not exist
  // is in its set.
  const inputs = parse(fs.readFileSync(CSV_FILE, 'utf8'), { columns: true }) as Row[];
  const special = inputs.filter(r => {
    const t = truth[ticketOf(r.url!)];
    return !t || t.assignee === 'unassigned' || t.due_date === null;
  });
  return startRecipeRun(
    TASK,
    acceptanceSamples(
      TASK,
      special.map(r => r.sample_id!),
    ),
  );
});

/** The cell combined.csv holds for a value: '' for null, JSON for lists. */
const cell = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));
const ticketOf = (url: string) => /\/issue\/([^/?#]+)/.exec(url)?.[1] ?? '';

function expectMatchesTruth(row: Row, mode: 'recipe' | 'model'): void {
  const expected = truth[row.sample_id!.replace(/-retry$/, '')];
  if (expected) {
    expect.soft(row.status, `${row.sample_id} status (${row.error})`).toBe('done');
    for (const field of FIELDS) expect.soft(row[field], `${row.sample_id}.${field}`).toBe(cell(expected[field]));
    return;
  }
  // A ref that does not exist is never "unassigned" and never done: the recipe stops, the model gives up.
  expect.soft(row.status, `${row.sample_id} status`).toBe(mode === 'recipe' ? 'needs_review' : 'failed');
  for (const field of FIELDS) expect.soft(row[field], `${row.sample_id}.${field}`).toBe('');
}

test('scripted model: waits for hydration, reads "unassigned" from the page, retries a transient error, fails on a missing ticket', async ({
  browser,
}) => {
  const env = await startScriptedModel();
  const server: ModelServer = env.server;
  try {
    const task = bundledTask(TASK);
    const inputs = new Map((parse(fs.readFileSync(CSV_FILE, 'utf8'), { columns: true }) as Row[]).map(r => [r.sample_id!, r.url!]));
    const ids = readEnv('BWA_FULL') ? [...inputs.keys(), 'ENG-105-retry'] : MODEL_SUBSET;
    const results: Result[] = [];
    for (const id of ids) {
      const transient = id.endsWith('-retry');
      const ref = id.replace(/-retry$/, '');
      const url = transient ? `${TRACKER}/acme/issue/${ref}?api_fault=500` : (inputs.get(id) ?? `${TRACKER}/acme/issue/${ref}`);
      // Hydration slower than any first observation, even on a loaded machine: turn 1 always sees the shell.
      const slowUrl = `${url}${url.includes('?') ? '&' : '?'}hydrate_ms=3000`;
      server.setScript(TASK, id, trackerTicketScript({ sample_id: id, url: slowUrl }));
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const session = await SampleSession.prepare({
        task,
        sample: sampleOf({ sample_id: id, url: slowUrl }),
        context,
        page: await context.newPage(),
        runId: 'model',
        attempt: 0,
        deciderMode: 'model',
        dir: tempDir(`bwa-tracker-${ref}-`),
      });
      results.push(await session.run());
      await context.close();
    }
    expect(server.errors).toEqual([]);
    const rows = parse(combinedCsv(results), { columns: true }) as Row[];
    for (const row of rows) expectMatchesTruth(row, 'model');
    for (const result of results.filter(r => r.status === 'done')) {
      expect(result.decider).toBe('model');
      expect(result.extracted.assignee!.provenance.source).toBe('dom');
      expect(result.artifacts.map(a => a.label)).toEqual(['ticket']);
    }
    // The first thing the model saw was the app shell, and it waited instead of reading it.
    const firstTurns = server.requests.filter(r => r.kind === 'decider' && r.turn === 1);
    expect(firstTurns.length).toBe(ids.length);
    for (const turn of firstTurns) expect(turn.lastUserText).toContain('Loading…');
    const transient = server.requests.filter(r => r.kind === 'decider' && r.key.sampleId === 'ENG-105-retry');
    expect(transient.some(r => r.lastUserText.includes('Something went wrong'))).toBe(true);
    const missing = server.requests.filter(r => r.kind === 'decider' && r.key.sampleId === 'ENG-999');
    expect(missing.at(-1)?.lastUserText).toContain('Issue not found');
  } finally {
    await env.restore();
  }
});

test('recipe: every ticket of the acceptance set (all 60 with BWA_FULL=1), two workers — every field matches the site truth', async () => {
  const { rows } = await recipeRows(recipe());
  expect(rows.length).toBeGreaterThanOrEqual(readEnv('BWA_FULL') ? 60 : 5);
  for (const row of rows) expectMatchesTruth(row, 'recipe');
  const unassigned = rows.filter(r => r.assignee === 'unassigned').map(r => r.sample_id);
  expect(unassigned.length).toBeGreaterThanOrEqual(5);
  expect(rows.filter(r => r.status === 'done' && r.due_date === '').length).toBeGreaterThanOrEqual(5);
  for (const row of rows) expect(Number(row.artifacts), row.sample_id).toBe(1);
});

test('break one thing: the tracker shows no due dates — the model reads none and reports null where the truth has a date', async ({ browser }) => {
  const env = await startScriptedModel();
  try {
    const task = bundledTask(TASK);
    const truth: Record<string, TicketTruth> = (await (await fetch(`${TRACKER}/__truth.json`)).json()).tickets;
    const id = Object.keys(truth).find(key => truth[key]!.due_date !== null && truth[key]!.assignee !== 'unassigned')!;
    env.server.setScript(TASK, id, trackerTicketScript({ sample_id: id, url: `${TRACKER}/acme/issue/${id}` }));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { [BREAK_HEADER]: DUE_DATE_HIDDEN_BREAK } });
    const session = await SampleSession.prepare({
      task,
      sample: sampleOf({ sample_id: id, url: `${TRACKER}/acme/issue/${id}` }),
      context,
      page: await context.newPage(),
      runId: 'model-break',
      attempt: 0,
      deciderMode: 'model',
      dir: tempDir(`bwa-tracker-break-${id}-`),
    });
    const result = await session.run();
    await context.close();
    expect(env.server.errors).toEqual([]);
    expect(result.status).toBe('done');
    // The truth has a date; the page shows none, and that is what the run reports.
    expect(truth[id]!.due_date).not.toBeNull();
    expect(result.extracted.due_date!.value).toBeNull();
    // Every other field is still read from the page and matches.
    for (const field of ['ticket_number', 'title', 'ticket_status', 'assignee'] as const) {
      expect(result.extracted[field]!.value, field).toBe(truth[id]![field]);
      expect(result.extracted[field]!.provenance.source, field).toBe('dom');
    }
  } finally {
    await env.restore();
  }
});
