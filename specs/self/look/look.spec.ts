import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Look } from '../../../agent/look/look';
import { loadTaskFile } from '../../../agent/task/load-task';
import type { ShelfItem } from '../../../fixtures/sites/widgets/cases/shelf-item';
import { newSessionToken, SESSION_COOKIE } from '../../../fixtures/sites/peoplesearch/session';
import { sampleOf, useScriptedModel } from '../helpers/agent-env';
import { runBwaInProcess } from '../helpers/cli';
import { SITE, SITE_HOST } from '../helpers/sites';
import { tempDir, writeFiles } from '../helpers/temp';
import { PROJECT_ROOT } from '../helpers/nested-run';
import { runSampleAlone } from '../recipe/helpers';

/**
 * `bwa look`: a live page as a model-decided sample's first look sends it, and what the page says about itself with
 * the target extract reads each fact by — no key, no request. On the widget lab's shop item page (meta tags, a JSON-LD
 * @graph, a <time>).
 */

const model = useScriptedModel({}, { resetEachTest: true });
let kettle: ShelfItem;

test.beforeAll(async () => {
  const truth = await (await fetch(`${SITE.widgets}/__truth.json`)).json();
  kettle = (truth.cases['shelf-item'].items as ShelfItem[]).find(item => item.id === 'kettle')!;
});

const kettleUrl = () => `${SITE.widgets}/shelf-item?item=kettle`;

/** A task on the shop's item pages, its samples CSV beside it. */
function shelfTasks(overrides: Record<string, unknown> = {}): string {
  const dir = tempDir('bwa-look-tasks-');
  const spec = {
    task_id: 'shelf',
    start_url: `${SITE.widgets}/shelf-item?item={{item}}`,
    system_prompt: 'Read the item page.',
    goal: 'Extract the price.',
    keywords: ['price'],
    output_schema: { price: 'number' },
    input_schema: { item: 'string' },
    allowed_domains: [SITE_HOST.widgets],
    ...overrides,
  };
  writeFiles(dir, { 'shelf.json': JSON.stringify(spec), 'inputs/shelf.csv': 'sample_id,item\nlamp,lamp\nkettle,kettle\n' });
  return dir;
}

test('bwa look <url>: the page state and every fact the page says about itself, each with the {document, key} target extract reads it by', async () => {
  const run = await runBwaInProcess(['look', kettleUrl()]);
  expect(run.code, run.printed).toBe(0);
  expect(run.stderr).toBe('');
  const out = run.stdout;
  // The page state, as the page made it.
  expect(out).toContain(`Title: "${kettle.name} — Widget lab"`);
  expect(out).toContain(`heading "${kettle.name}" (level 1)`);
  expect(out).toContain(`"${kettle.price}"`);
  expect(out).toMatch(/ \[d\d\] site_name "Lamp & Loom" \(og:site_name \+1\)/);
  // Each fact under its own line, every place the page says it, with the target a recipe step reads it by.
  expect(out).toMatch(
    new RegExp(
      `\\[d\\d\\] modified "${kettle.modified}T16:30:00Z"\\n +json-ld \\[0\\]\\.@graph\\[1\\]\\.dateModified +→ \\{"document":"json-ld","key":"\\[0\\]\\.@graph\\[1\\]\\.dateModified"\\}`,
    ),
  );
  expect(out).toMatch(
    /\[d\d\] site_name "Lamp & Loom"\n +meta og:site_name +→ \{"document":"meta","key":"og:site_name"\}\n +json-ld \[0\]\.@graph\[0\]\.name +→ \{"document":"json-ld","key":"\[0\]\.@graph\[0\]\.name"\}/,
  );
  expect(out).toMatch(
    new RegExp(`\\[d\\d\\] time "${kettle.published}"\\n +dom time\\[datetime\\] 1 +→ \\{"document":"dom","key":"time\\[datetime\\] 1"\\}`),
  );
  expect(out).toContain('ELEMENTS — the targets a recipe step could point at an element with: add --ref <ref>');
  expect(model.server.requests).toEqual([]);
});

test("the page state bwa look prints is the one a model-decided sample's first request carries", async ({ browser }) => {
  const dir = shelfTasks();
  const looked = await runBwaInProcess(['look', '--task', 'shelf', '--sample', 'kettle', '--json'], { AGENT_TASKS_DIR: dir });
  expect(looked.code, looked.printed).toBe(0);
  const seen = JSON.parse(looked.stdout) as Look;
  expect(seen.label).toBe('task shelf, sample kettle');
  expect(seen.tokenBudget).toBeGreaterThan(0);
  expect(seen.pageState).toContain(`heading "${kettle.name}" (level 1)`);
  // The same task and sample, decided by the scripted model: its first request carries the page state (it then fails the sample).
  model.server.setScript('shelf', 'kettle', { steps: [], on_exhausted: 'fail' });
  await runSampleAlone(browser, loadTaskFile(path.join(dir, 'shelf.json')), sampleOf({ sample_id: 'kettle', item: 'kettle' }), 'model');
  const [first] = model.server.requests.filter(r => r.kind === 'decider');
  expect(first!.lastUserText).toContain(seen.pageState);
});

test('--ref: locators that point at that element alone, none naming the value it shows; each reads it on the page', async ({ page }) => {
  const dir = shelfTasks();
  const plain = await runBwaInProcess(['look', '--task', 'shelf', '--sample', 'kettle'], { AGENT_TASKS_DIR: dir });
  // The ref of the line that shows the price, as an author reads it off the page state.
  const ref = new RegExp(`\\[(e\\d+)\\] \\w+ "${kettle.price}"`).exec(plain.stdout)?.[1];
  expect(ref, plain.stdout).toBeDefined();
  const asked = await runBwaInProcess(['look', '--task', 'shelf', '--sample', 'kettle', '--ref', ref!, '--ref', 'e999'], { AGENT_TASKS_DIR: dir });
  const section = asked.stdout.slice(asked.stdout.indexOf(`  [${ref}] `));
  expect(section).toMatch(new RegExp(`^  \\[${ref}\\] \\w+ "${kettle.price.replace('.', '\\.')}"\\n`));
  expect(section).toContain('  [e999]\n      e999 is not in the page state');
  const targets = [...section.split('  [e999]\n')[0]!.matchAll(/^ {6}→ (.+)$/gm)].map(m => JSON.parse(m[1]!) as { css?: string; nth?: number });
  expect(targets.length).toBeGreaterThan(0);
  await page.goto(kettleUrl());
  for (const target of targets) {
    expect(JSON.stringify(target)).not.toContain(kettle.price);
    expect(target.css, JSON.stringify(target)).toBeDefined();
    await expect(page.locator(target.css!).nth(target.nth ?? 0)).toHaveText(kettle.price);
  }
});

test("--task opens the start page with the auth profile's saved sign-in when there is one, and keeps to allowed_domains", async () => {
  const authDir = tempDir('bwa-look-auth-');
  const tasksDir = path.join(PROJECT_ROOT, 'tasks');
  const signedOut = await runBwaInProcess(['look', '--task', 'people_enrichment'], { AGENT_TASKS_DIR: tasksDir, AGENT_AUTH_DIR: authDir });
  expect(signedOut.code, signedOut.printed).toBe(0);
  expect(signedOut.stdout).toContain('auth_profile "peoplesearch" has no saved sign-in at');
  expect(signedOut.stdout).toContain('button "Sign in"');

  const state = {
    cookies: [
      { name: SESSION_COOKIE, value: newSessionToken(), domain: '127.0.0.1', path: '/', expires: -1, httpOnly: true, secure: false, sameSite: 'Lax' },
    ],
    origins: [],
  };
  fs.writeFileSync(path.join(authDir, 'peoplesearch.json'), JSON.stringify(state));
  const signedIn = await runBwaInProcess(['look', '--task', 'people_enrichment', '--sample', 'maria_garcia_globex'], {
    AGENT_TASKS_DIR: tasksDir,
    AGENT_AUTH_DIR: authDir,
  });
  expect(signedIn.code, signedIn.printed).toBe(0);
  expect(signedIn.stdout).toContain('signed in with auth_profile "peoplesearch"');
  expect(signedIn.stdout).toContain('URL: "http://127.0.0.1:4106/search/results/people?keywords=Maria%20Garcia"');
  expect(signedIn.stdout).not.toContain('button "Sign in"');
  expect(signedIn.stdout).toMatch(/link "Maria Garcia"/);

  const outside = shelfTasks({ allowed_domains: [SITE_HOST.people] });
  const refused = await runBwaInProcess(['look', '--task', 'shelf'], { AGENT_TASKS_DIR: outside });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(
    `task shelf, sample lamp: its start page ${SITE.widgets}/shelf-item?item=lamp is outside the task's allowed_domains (${SITE_HOST.people})`,
  );
  // A start page that redirects off the allowed domains is refused there, as a sample's navigation is.
  const away = shelfTasks({ start_url: `${SITE.widgets}/go-away` });
  const redirected = await runBwaInProcess(['look', '--task', 'shelf'], { AGENT_TASKS_DIR: away });
  expect(redirected.code, redirected.printed).toBe(1);
  expect(redirected.stderr).toMatch(/^bwa look: BWA_LOOK_OPEN\n.*\/go-away: the page could not be opened \(.*outside the task's allowed domains/m);
});

test('usage: a URL or --task, not both; --sample only with --task; a sample the task does not have is named with the ones it has', async () => {
  const none = await runBwaInProcess(['look']);
  expect(none.code).toBe(2);
  expect(none.stderr).toContain('bwa look: missing <url> (or --task <task_id>)');
  expect((await runBwaInProcess(['look', kettleUrl(), '--task', 'shelf'])).stderr).toContain('give a URL or --task, not both');
  expect((await runBwaInProcess(['look', kettleUrl(), '--sample', 'kettle'])).stderr).toContain('--sample needs --task');
  expect((await runBwaInProcess(['look', 'example.com'])).stderr).toContain('"example.com" is not an http(s) URL');
  const missing = await runBwaInProcess(['look', '--task', 'shelf', '--sample', 'teapot'], { AGENT_TASKS_DIR: shelfTasks() });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('task shelf has no sample "teapot" (samples: lamp, kettle)');
});
