import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Manifest } from '../../../agent/report/write-run';
import { PROJECT_ROOT, runNested } from '../helpers/nested-run';
import { tempDir } from '../helpers/temp';
import { runBwa, runCommand } from '../helpers/cli-process';
import { htmlReportTests, type HtmlStep } from './report-data';
import { readZip } from './zip';
import { SITE } from '../helpers/sites';

/**
 * One real traced run of the bundled task (6 samples), then everything a reviewer opens is checked from the files
 * it left: the Playwright HTML report, the trace, Allure results and report, the evidence index, `bwa verify`.
 */
test.describe.configure({ mode: 'serial' });

const RUN = 'review';
let reports = '';
const runFolder = () => path.join(reports, 'runs', RUN);

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(240_000);
  reports = tempDir('bwa-review-');
  const run = await runNested({
    args: ['--project=bwa', '--no-deps', '--grep', '@people_profile', '--workers=2'],
    env: { AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: RUN, AGENT_TRACE: 'on' },
  });
  expect(run.code, run.output).toBe(0);
});

const AGENT_STEP = /^Step (\d+) · (\S+)/;
const OUTCOME = /^[✓✗] /;

test('HTML report: every agent step is a test step with its outcome nested and its screenshot attached to it', () => {
  const tests = htmlReportTests(path.join(reports, 'html'));
  expect(tests.map(t => t.title).sort()).toEqual(['ada', 'alan', 'barbara', 'grace', 'linus', 'margaret']);
  for (const reported of tests) {
    const result = reported.results.at(-1)!;
    const agentSteps = result.steps.filter(s => AGENT_STEP.test(s.title));
    expect(agentSteps.map(s => Number(AGENT_STEP.exec(s.title)?.[1]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const step of agentSteps)
      expect(
        step.steps.filter(s => OUTCOME.test(s.title)),
        step.title,
      ).toHaveLength(1);

    const screenshotStep = agentSteps.find(s => s.title === 'Step 2 · screenshot "profile"')!;
    expect(screenshotStep.steps.map(s => s.title)).toContain('✓ Screenshot saved: 01_profile.png');
    const attachedThere = subtreeAttachments(screenshotStep).map(i => result.attachments[i]?.name);
    expect(attachedThere).toEqual(['bwa-artifact:01_profile.png']);
    const extract = agentSteps.find(s => s.title.startsWith('Step 3 · extract display_name'))!;
    expect(extract.steps.at(-1)?.title).toMatch(/^✓ display_name = ".+" \(from css=\[itemprop=name\]\)$/);
  }
});

test('trace: the same steps and outcomes, with the screenshot attached inside its step', () => {
  const trace = readZip(fs.readFileSync(path.join(runFolder(), 'people_profile', 'ada', 'trace.zip')));
  const events = (trace.get('test.trace')?.toString('utf8') ?? '')
    .split('\n')
    .filter(Boolean)
    .map(line => JSON.parse(line) as { type: string; callId?: string; parentId?: string; title?: string });
  const before = events.filter(e => e.type === 'before');
  const step2 = before.find(e => e.title === 'Step 2 · screenshot "profile"');
  expect(step2).toBeTruthy();
  const children = before.filter(e => e.parentId === step2?.callId).map(e => e.title);
  expect(children).toEqual(expect.arrayContaining(['✓ Screenshot saved: 01_profile.png', 'Attach "bwa-artifact:01_profile.png"']));
  expect(before.some(e => e.title?.startsWith('✓ followers = 1234'))).toBe(true);
});

interface AllureStep {
  name: string;
  status?: string;
  steps: AllureStep[];
  attachments: Array<{ name: string; source: string }>;
}
interface AllureResult extends AllureStep {
  labels: Array<{ name: string; value: string }>;
  parameters: Array<{ name: string; value: string }>;
  links: Array<{ url: string }>;
}

test('Allure results: task as feature and suite, inputs as parameters, status label, source links, steps with outcomes', () => {
  const dir = path.join(reports, 'allure-results', RUN);
  const results = fs
    .readdirSync(dir)
    .filter(f => f.endsWith('-result.json'))
    .map(f => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as AllureResult);
  expect(results).toHaveLength(6);
  const ada = results.find(r => r.name === 'ada')!;
  const label = (name: string) => ada.labels.filter(l => l.name === name).map(l => l.value);
  expect(label('feature')).toEqual(['people_profile']);
  expect(label('suite')).toEqual(['people_profile']);
  expect(label('sample_status')).toEqual(['done']);
  expect(ada.parameters).toContainEqual({ name: 'username', value: 'ada' });
  expect(ada.links.map(l => l.url)).toEqual([`${SITE.people}/people/ada`]);

  const step2 = findAllureStep(ada.steps, 'Step 2 · screenshot "profile"')!;
  expect(step2.steps.map(s => s.name)).toContain('✓ Screenshot saved: 01_profile.png');
  const screenshot = allAttachments(step2).find(a => a.name === 'bwa-artifact:01_profile.png');
  expect(screenshot, 'the screenshot is attached inside its step').toBeTruthy();
  expect(fs.existsSync(path.join(dir, screenshot!.source))).toBe(true);
});

test('npm run report:allure builds the Allure report with the steps, without Java', async () => {
  test.setTimeout(120_000);
  const run = await runCommand('npm', ['run', '--silent', 'report:allure'], { AGENT_REPORTS_DIR: reports, JAVA_HOME: undefined });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const report = path.join(reports, 'allure-report');
  expect(fs.existsSync(path.join(report, 'index.html'))).toBe(true);
  const testResults = path.join(report, 'data', 'test-results');
  const texts = fs.readdirSync(testResults).map(f => fs.readFileSync(path.join(testResults, f), 'utf8'));
  expect(texts).toHaveLength(6);
  const ada = texts.find(t => t.includes('"name":"ada"'))!;
  expect(ada).toContain('Step 2 · screenshot \\"profile\\"');
  expect(ada).toContain('✓ Screenshot saved: 01_profile.png');
  expect(ada).toContain('"sample_status"');
});

test('the HTML report, rendered, shows each step with its outcome', async ({ page }, testInfo) => {
  const ada = htmlReportTests(path.join(reports, 'html')).find(t => t.title === 'ada')!;
  await page.goto(`${pathToFileURL(path.join(reports, 'html', 'index.html')).href}#?testId=${ada.testId}`);
  const step2 = page.getByText('Step 2 · screenshot "profile"', { exact: true });
  await expect(step2).toBeVisible();
  await step2.click();
  await expect(page.getByText('✓ Screenshot saved: 01_profile.png')).toBeVisible();
  await expect(page.getByText('Attach "bwa-artifact:01_profile.png"')).toBeVisible();
  await testInfo.attach('html-report', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
});

test('evidence index: every sample with status, fields, loaded thumbnails, hashes and working links', async ({ page }, testInfo) => {
  const indexFile = path.join(runFolder(), 'index.html');
  const manifest = JSON.parse(fs.readFileSync(path.join(runFolder(), 'manifest.json'), 'utf8')) as Manifest;
  await page.goto(pathToFileURL(indexFile).href);
  const rows = page.locator('tr.sample');
  await expect(rows).toHaveCount(6);
  expect(await rows.evaluateAll(trs => trs.map(tr => tr.getAttribute('data-status')))).toEqual(Array(6).fill('done'));
  await expect(page.locator('#summary')).toHaveText('6 samples — 6 done, 0 partial, 0 needs review, 0 failed');
  await expect(page.locator('#sample-people_profile-ada dd[data-field="display_name"]')).toContainText('Ada Lovelace');

  const thumbs = page.locator('img.thumb');
  await expect(thumbs).toHaveCount(6);
  await expect
    .poll(() => thumbs.evaluateAll(imgs => imgs.filter(i => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0).length))
    .toBe(6);
  const text = await page.locator('body').innerText();
  for (const artifact of manifest.artifacts) expect(text).toContain(artifact.sha256);

  const hrefs = await page.locator('a[href]').evaluateAll(as => as.map(a => (a as HTMLAnchorElement).href));
  const local = hrefs.filter(h => h.startsWith('file:'));
  expect(local.length).toBeGreaterThanOrEqual(6 * 6);
  for (const href of local) expect(fs.existsSync(new URL(href)), href).toBe(true);
  await expect(page.locator('a.result-link')).toHaveCount(6);
  await expect(page.locator('a.trace-link')).toHaveCount(6);
  expect(hrefs.filter(h => !h.startsWith('file:')).every(h => h.startsWith(`${SITE.people}/`))).toBe(true);
  await testInfo.attach('evidence-index', { body: await page.screenshot(), contentType: 'image/png' });
});

test('bwa verify: the run checks out; a changed byte in any file of the trail, or a deleted file, fails naming the file', async () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(runFolder(), 'manifest.json'), 'utf8')) as Manifest;
  // Every sample's action log, checkpoint and trace is hashed beside its screenshots.
  expect(manifest.records.map(r => path.posix.basename(r.path))).toEqual(Array(6).fill(['action_log.json', 'checkpoint.json', 'trace.zip']).flat());
  const ok = await runBwa(['verify', RUN], { AGENT_REPORTS_DIR: reports });
  expect(ok.code, ok.stdout + ok.stderr).toBe(0);
  expect(ok.stdout.trim().split('\n').at(-1)).toMatch(/^bwa verify: run review OK — 6 samples, 6 artifacts and 26 other files re-hashed/);
  const manifestSha = /manifest\.json sha256 ([0-9a-f]{64})/.exec(ok.stdout)?.[1];
  expect(manifestSha).toBeDefined();

  const copy = path.join(tempDir('bwa-verify-'), RUN);
  fs.cpSync(runFolder(), copy, { recursive: true });
  const edited = {
    'people_profile/grace/01_profile.png': flipMiddleByte,
    'people_profile/ada/action_log.json': (bytes: Buffer) => Buffer.from(bytes.toString('utf8').replace('"success": true', '"success": false')),
    'people_profile/alan/checkpoint.json': (bytes: Buffer) => Buffer.from(bytes.toString('utf8').replace('"status": "done"', '"status": "failed"')),
    'people_profile/barbara/trace.zip': flipMiddleByte,
    'index.html': (bytes: Buffer) => Buffer.from(bytes.toString('utf8').replace('6 samples', '7 samples')),
  };
  for (const [file, edit] of Object.entries(edited)) {
    const full = path.join(copy, file);
    const before = fs.readFileSync(full);
    const after = edit(before);
    expect(after.equals(before), `${file} was edited`).toBe(false);
    fs.writeFileSync(full, after);
  }
  fs.rmSync(path.join(copy, 'people_profile', 'linus', '01_profile.png'));
  const bad = await runBwa(['verify', copy, '--manifest-sha256', manifestSha!]);
  expect(bad.code).toBe(1);
  for (const file of Object.keys(edited)) expect(bad.stderr).toMatch(new RegExp(`✗ ${file.replace(/\./g, '\\.')}: sha256`));
  expect(bad.stderr).toContain('people_profile/linus/01_profile.png: missing');
  expect(bad.stderr).toContain('FAILED — 6 problems');

  // The manifest is the one file nothing in the run hashes: the hash the run printed, kept outside it, catches it.
  const clean = path.join(tempDir('bwa-verify-'), RUN);
  fs.cpSync(runFolder(), clean, { recursive: true });
  const manifestFile = path.join(clean, 'manifest.json');
  fs.writeFileSync(manifestFile, fs.readFileSync(manifestFile, 'utf8').replace('"generated_at": "', '"generated_at": "1'));
  expect((await runBwa(['verify', clean])).code).toBe(0);
  const swapped = await runBwa(['verify', clean, '--manifest-sha256', manifestSha!]);
  expect(swapped.code).toBe(1);
  expect(swapped.stderr).toContain(`✗ manifest.json: sha256 `);
  expect(swapped.stderr).toContain(`differs from the one given (${manifestSha}) — the manifest was changed`);
});

function flipMiddleByte(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  const middle = copy.length >> 1;
  copy.writeUInt8(copy.readUInt8(middle) ^ 0xff, middle);
  return copy;
}

// Last: its shard run wipes the shared test-results/ folder.
test('merge-reports writes the index too, with each trace taken out of the blob report', async ({ page }) => {
  test.setTimeout(180_000);
  const blobDir = path.join(reports, 'blob');
  const shard = await runNested({
    args: ['--project=bwa', '--no-deps', '--grep', '@people_profile', '--shard=1/3', '--reporter=blob'],
    env: { AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: 'shard1', AGENT_TRACE: 'on', PLAYWRIGHT_BLOB_OUTPUT_DIR: blobDir },
  });
  expect(shard.code, shard.output).toBe(0);
  const reporter = path.join(PROJECT_ROOT, 'agent/report/reporter.ts');
  const merge = await runNested({
    command: ['merge-reports'],
    args: ['--reporter', reporter, blobDir],
    env: { AGENT_REPORTS_DIR: reports, AGENT_RUN_ID: 'merged' },
  });
  expect(merge.code, merge.output).toBe(0);

  const merged = path.join(reports, 'runs', 'merged');
  await page.goto(pathToFileURL(path.join(merged, 'index.html')).href);
  await expect(page.locator('tr.sample')).toHaveCount(2);
  const traceLinks = await page.locator('a.trace-link').evaluateAll(as => as.map(a => (a as HTMLAnchorElement).href));
  expect(traceLinks).toHaveLength(2);
  for (const link of traceLinks) expect(readZip(fs.readFileSync(new URL(link))).has('test.trace')).toBe(true);
  const verified = await runBwa(['verify', merged]);
  expect(verified.code, verified.stdout + verified.stderr).toBe(0);
});

function subtreeAttachments(step: HtmlStep): number[] {
  return [...step.attachments, ...step.steps.flatMap(subtreeAttachments)];
}

function findAllureStep(steps: readonly AllureStep[], name: string): AllureStep | undefined {
  for (const step of steps) {
    if (step.name === name) return step;
    const inner = findAllureStep(step.steps ?? [], name);
    if (inner) return inner;
  }
  return undefined;
}

function allAttachments(step: AllureStep): AllureStep['attachments'] {
  return [...(step.attachments ?? []), ...(step.steps ?? []).flatMap(allAttachments)];
}
