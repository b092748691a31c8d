import { expect, test } from '@playwright/test';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { Result } from '../../../agent/evidence/result-schema';
import { readZip } from '../../../agent/evidence/zip';
import type { Manifest } from '../../../agent/report/write-run';
import { settings } from '../../../agent/settings';
import { startBrowserServer, type RunningBrowserServer } from '../helpers/browser-server';
import { PROJECT_ROOT, runNested } from '../helpers/nested-run';
import { tempDir } from '../helpers/temp';
import { withEnv } from '../helpers/env';
import { runBwa } from '../helpers/cli-process';
import { PEOPLESEARCH_ENV } from '../../../fixtures/sites/peoplesearch/credentials';

/**
 * Two profiles of people_profile (screenshots), one hire of hr_form (uploads, a date picker, a downloaded report)
 * and one lookup of people_enrichment (signed in by globalSetup, on the server's browser too).
 */
const PROFILES = ['ada', 'grace'];
const HIRES = ['hire_chen_li'];
const SIGNED_IN = 'maria_garcia_globex';
const only = (task: string, ids: readonly string[]) => `(?=.*@${task}\\b)(?=.* (${ids.join('|')}) )`;
const GREP = [only('people_profile', PROFILES), only('hr_form', HIRES), only('people_enrichment', [SIGNED_IN])].join('|');
const TASKS = ['people_profile', 'hr_form', 'people_enrichment'];
const SAMPLES = PROFILES.length + HIRES.length + 1;

test.describe.configure({ mode: 'default', timeout: 420_000 });

let server: RunningBrowserServer;
test.beforeAll(async () => {
  server = await startBrowserServer(['--port', '0']);
});
test.afterAll(async () => {
  // A signal closes the browser and the command exits 0.
  expect(await server?.stop()).toBe(0);
});

/** The HR site issues a new reference number on every submission: two runs differ there and nowhere else. */
const sameAcrossRuns = (text: string) => text.replace(/HR-[A-Z0-9]{8}/g, 'HR-<reference>');

function evidenceOf(reports: string, runId: string) {
  const runDir = path.join(reports, 'runs', runId);
  const manifest = JSON.parse(fs.readFileSync(path.join(runDir, 'manifest.json'), 'utf8')) as Manifest;
  const samples = manifest.samples.map(s => {
    const result = JSON.parse(fs.readFileSync(path.join(runDir, s.task_id, s.sample_id, 'result.json'), 'utf8')) as Result;
    return {
      sample: `${s.task_id}/${s.sample_id}`,
      status: result.status,
      steps: result.steps,
      fields: Object.fromEntries(
        Object.entries(result.extracted).map(([field, { value, provenance }]) => [
          field,
          { value, source: provenance.source, locator: provenance.locator ?? null },
        ]),
      ),
      artifacts: result.artifacts.map(a => ({ filename: a.filename, kind: a.kind, label: a.label })),
    };
  });
  const csv = TASKS.map(task => fs.readFileSync(path.join(runDir, task, 'combined.csv'), 'utf8')).join('\n');
  return {
    runDir,
    manifest,
    comparable: JSON.parse(sameAcrossRuns(JSON.stringify({ csv, samples, counts: manifest.counts, problems: manifest.problems }))),
  };
}

test('a run on `bwa browser-server` gives the same evidence as a run on a local Chromium: screenshots and downloads hashed locally, traces recorded', async () => {
  const reports = tempDir('bwa-browser-server-');
  const args = [
    '--project=bwa',
    '--grep',
    GREP,
    '--workers=2',
    `--reporter=${path.join(PROJECT_ROOT, 'agent/report/mask-reporter.ts')},dot,${path.join(PROJECT_ROOT, 'agent/report/reporter.ts')}`,
  ];
  const common = {
    AGENT_REPORTS_DIR: reports,
    AGENT_DECIDER: 'recipe',
    AGENT_TRACE: 'on',
    ANTHROPIC_API_KEY: undefined,
    ANTHROPIC_BASE_URL: undefined,
    // people_enrichment signs in: the stand-in site's fake account, as a user's .env would give it.
    ...PEOPLESEARCH_ENV,
  };
  const local = await runNested({ args, env: { ...common, AGENT_RUN_ID: 'local' } });
  expect(local.code, local.output.slice(-3000)).toBe(0);
  // No Chromium on this runner: every browser must come from the server.
  const remote = await runNested({
    args,
    env: { ...common, AGENT_RUN_ID: 'remote', AGENT_BROWSER_WS: server.endpoint, AGENT_CHROMIUM_PATH: '/nonexistent/chromium' },
  });
  expect(remote.code, remote.output.slice(-3000)).toBe(0);
  expect(remote.output).toContain(`bwa: every sample's browser comes from the browser server at ${server.endpoint} (Chromium `);
  // All done, the signed-in lookup too: globalSetup's sign-in ran on the server's browser as well (no Chromium here).
  expect(remote.output).toContain(`bwa run remote: ${SAMPLES} samples — ${SAMPLES} done`);

  const mine = evidenceOf(reports, 'local');
  const theirs = evidenceOf(reports, 'remote');
  expect(theirs.comparable).toEqual(mine.comparable);
  expect(theirs.manifest.problems).toEqual([]);
  const kinds = theirs.manifest.artifacts.map(a => path.extname(a.path));
  expect(kinds.filter(k => k === '.png')).toHaveLength(PROFILES.length + 3 * HIRES.length + 1);
  expect(kinds.filter(k => k === '.csv')).toHaveLength(HIRES.length);
  for (const artifact of theirs.manifest.artifacts) {
    const bytes = fs.readFileSync(path.join(theirs.runDir, artifact.path));
    expect({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }, artifact.path).toEqual({
      bytes: artifact.bytes,
      sha256: artifact.sha256,
    });
  }
  for (const hire of HIRES) {
    // The downloaded report is this hire's: it carries the reference number read from the page in the same run.
    const result = JSON.parse(fs.readFileSync(path.join(theirs.runDir, 'hr_form', hire, 'result.json'), 'utf8')) as Result;
    const report = result.artifacts.find(a => a.kind === 'download')!;
    expect(fs.readFileSync(path.join(theirs.runDir, 'hr_form', hire, report.filename), 'utf8')).toContain(
      String(result.extracted.reference_number!.value),
    );
  }
  for (const sample of theirs.manifest.samples) {
    const trace = path.join(theirs.runDir, sample.task_id, sample.sample_id, 'trace.zip');
    expect(fs.existsSync(trace), trace).toBe(true);
    // The trace holds the remote browser's own recording, not just the test runner's steps: its screencast.
    const recorded = [...readZip(fs.readFileSync(trace)).entries()]
      .filter(([name]) => name.endsWith('.trace'))
      .map(([, bytes]) => bytes.toString('utf8'));
    expect(
      recorded.some(events => events.includes('"screencast-frame"')),
      `${trace} has screencast frames`,
    ).toBe(true);
  }
});

test('an endpoint where nothing answers stops the run before any sample starts, naming it (a token in it masked) and what to do', async () => {
  const reports = tempDir('bwa-browser-server-down-');
  const endpoint = `ws://127.0.0.1:${await closedPort()}/browser?token=hunter2`;
  const run = await runNested({
    args: ['--project=bwa', '--grep', '@people_profile'],
    env: { AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: 'down', AGENT_BROWSER_WS: endpoint },
  });
  expect(run.code).toBe(1);
  expect(run.output).toContain(
    `bwa: cannot use the browser server at ${endpoint.replace('hunter2', '***')} (AGENT_BROWSER_WS): nothing answers there (ECONNREFUSED).`,
  );
  expect(run.output).toContain('start one on that machine with `npx bwa browser-server --host 0.0.0.0`');
  expect(run.output).toContain('No sample was started.');
  expect(run.output).not.toContain('hunter2');
  expect(fs.existsSync(path.join(reports, 'runs', 'down', 'people_profile'))).toBe(false);

  // A browser bwa opens by itself (here discovery's) says the same, not Playwright's bare connection error.
  const discover = await runBwa(['discover', 'org_members'], { AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: 'down', AGENT_BROWSER_WS: endpoint });
  expect(discover.code).toBe(1);
  expect(discover.stderr.trim()).toBe(
    `bwa: cannot use the browser server at ${endpoint.replace('hunter2', '***')} (AGENT_BROWSER_WS): nothing answers there (ECONNREFUSED). ` +
      'What to do: start one on that machine with `npx bwa browser-server --host 0.0.0.0` and set AGENT_BROWSER_WS to the endpoint it prints, or unset AGENT_BROWSER_WS to use a local Chromium.',
  );
});

test('a client of another Playwright version is refused by the real server before any sample starts, with both versions named', async () => {
  const reports = tempDir('bwa-browser-server-old-');
  // What an older checkout of this project sends: the server's own version check answers (428, both versions).
  const headers = { 'User-Agent': 'Playwright/1.64.0 (x64; debian 12) node/20.19', Authorization: 'Bearer s3cret-grid-token' };
  const run = await runNested({
    args: ['--project=bwa', '--grep', '@people_profile'],
    env: { AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: 'old', AGENT_BROWSER_WS: server.endpoint, AGENT_BROWSER_WS_HEADERS: JSON.stringify(headers) },
  });
  expect(run.code).toBe(1);
  expect(run.output).toContain(
    `bwa: cannot use the browser server at ${server.endpoint} (AGENT_BROWSER_WS): it runs Playwright 1.65 and serves only clients of that version (this one says 1.64; this project pins 1.65.1).`,
  );
  expect(run.output).toContain("start the server from this project's Playwright: `npx bwa browser-server`");
  expect(run.output).not.toContain('s3cret-grid-token');
  expect(fs.existsSync(path.join(reports, 'runs', 'old', 'people_profile'))).toBe(false);
});

test('AGENT_BROWSER_WS and its headers are checked where they are read, without echoing their values', () => {
  withEnv({ AGENT_BROWSER_WS: undefined, AGENT_BROWSER_WS_HEADERS: undefined }, () => {
    expect(settings.browserServer).toBeUndefined();
    process.env.AGENT_BROWSER_WS = 'ftp://secret@host/x';
    expect(() => settings.browserServer).toThrow(
      /^AGENT_BROWSER_WS must be the ws:\/\/ \(or wss:\/\/, http:\/\/, https:\/\/\) address a Playwright browser server printed/,
    );
    expect(() => settings.browserServer).not.toThrow(/secret/);
    process.env.AGENT_BROWSER_WS = 'wss://grid.example/playwright';
    process.env.AGENT_BROWSER_WS_HEADERS = '{"Authorization": "Bearer abc"';
    expect(() => settings.browserServer).toThrow(
      'AGENT_BROWSER_WS_HEADERS must be a JSON object of header name → text (not valid JSON), e.g. {"Authorization":"Bearer <token>"}',
    );
    process.env.AGENT_BROWSER_WS_HEADERS = '{"Authorization": "Bearer abc", "X-Retries": 3}';
    expect(() => settings.browserServer).toThrow(
      'AGENT_BROWSER_WS_HEADERS must be a JSON object of header name → text (the value of "X-Retries" is not text)',
    );
    process.env.AGENT_BROWSER_WS_HEADERS = '{"Authorization": "Bearer abc"}';
    expect(settings.browserServer).toEqual({ wsEndpoint: 'wss://grid.example/playwright', headers: { Authorization: 'Bearer abc' } });
  });
});

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>(resolve => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise(resolve => probe.close(resolve));
  return port;
}
