import { expect, test } from '@playwright/test';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { nestedEnv, PROJECT_ROOT } from '../helpers/nested-run';
import { tempDir } from '../helpers/temp';
import { freePort, writeSiteScript } from './own-site';

test.setTimeout(300_000);

const SECTION = '## Your first task on your own site';
const README_HOST = 'https://shop.example.com';

/** The section's fenced blocks, in order: what the reader types (bash), pastes into the CSV (csv) and into the spec (json). */
function walkthrough(): Array<{ lang: string; text: string }> {
  const readme = fs.readFileSync(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf(SECTION);
  const section = readme.slice(start, readme.indexOf('\n## ', start + SECTION.length));
  return [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map(m => ({ lang: m[1]!, text: m[2]! }));
}

function shell(command: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn('bash', ['-c', command], { cwd: PROJECT_ROOT, env: nestedEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', chunk => (output += String(chunk)));
  child.stderr.on('data', chunk => (output += String(chunk)));
  return new Promise(resolve => child.on('close', code => resolve({ code, output })));
}

test("the README walkthrough, followed literally against a site of the user's own, ends with evidence on disk", async () => {
  const root = tempDir('bwa-walkthrough-');
  const port = await freePort();
  const site = spawn(process.execPath, [writeSiteScript(root), String(port)], { stdio: 'ignore' });
  const siteUrl = `http://127.0.0.1:${port}`;
  const tasks = path.join(root, 'tasks');
  const env = {
    AGENT_TASKS_DIR: tasks,
    AGENT_REPORTS_DIR: path.join(root, 'reports'),
    AGENT_RUN_ID: 'first-task',
    AGENT_AUTH_DIR: path.join(root, '.auth'),
  };
  try {
    await expect
      .poll(() =>
        fetch(`${siteUrl}/health`).then(
          r => r.ok,
          () => false,
        ),
      )
      .toBe(true);
    const blocks = walkthrough();
    expect(blocks.map(b => b.lang)).toEqual(['bash', 'csv', 'json', 'bash', 'bash']);
    const taskFile = path.join(tasks, 'book_prices.json');
    const csvFile = path.join(tasks, 'inputs', 'book_prices.csv');
    const outputs: string[] = [];
    for (const [index, block] of blocks.entries()) {
      if (block.lang === 'csv') {
        fs.writeFileSync(csvFile, block.text);
      } else if (block.lang === 'json') {
        const spec = JSON.parse(fs.readFileSync(taskFile, 'utf8'));
        expect(JSON.stringify(spec.recipe), 'bwa init left locators to fill in').toContain('FILL IN');
        Object.assign(spec, JSON.parse(`{${block.text}}`));
        fs.writeFileSync(taskFile, JSON.stringify(spec, null, 2));
      } else if (index === blocks.length - 1) {
        // The sign-in example: codegen opens a browser window for a person; import is tested with a saved state below.
        expect(block.text).toContain('npx bwa auth import shop shop-state.json');
      } else {
        for (const command of block.text.trim().split('\n')) {
          const run = await shell(command.replaceAll(README_HOST, siteUrl), env);
          outputs.push(run.output);
          expect(run.code, `${command}\n${run.output}`).toBe(0);
        }
      }
    }
    expect(outputs[0]).toContain('wrote');
    const spec = JSON.parse(fs.readFileSync(taskFile, 'utf8'));
    expect(spec.allowed_domains).toEqual([`127.0.0.1:${port}`]);
    const evidence = path.join(root, 'reports', 'runs', 'first-task', 'book_prices');
    const csv = fs.readFileSync(path.join(evidence, 'combined.csv'), 'utf8');
    expect(csv).toMatch(/^dune,done,Dune,9\.99,/m);
    expect(csv).toMatch(/^emma,done,Emma,4\.5,/m);
    for (const sample of ['dune', 'emma'])
      for (const file of ['result.json', 'action_log.json', '01_page.png'])
        expect(fs.existsSync(path.join(evidence, sample, file)), `${sample}/${file}`).toBe(true);
    const verify = await shell('npx bwa verify first-task', env);
    expect(verify.code, verify.output).toBe(0);
  } finally {
    site.kill();
  }
});

test('bwa init refuses to overwrite; bwa validate names what is left to fill in', async () => {
  const tasks = path.join(tempDir('bwa-init-'), 'tasks');
  const env = { AGENT_TASKS_DIR: tasks };
  const init = 'npx bwa init prices --url "https://shop.example.com/p/{{sku}}" --field price:number';
  expect((await shell(init, env)).code).toBe(0);
  expect(fs.readFileSync(path.join(tasks, 'inputs', 'prices.csv'), 'utf8').split('\n')[0]).toBe('sample_id,sku');
  const again = await shell(init, env);
  expect(again.code).toBe(1);
  expect(again.output).toContain(`${path.join(tasks, 'prices.json')} already exists: bwa init never overwrites`);
  const validate = await shell('npx bwa validate', env);
  expect(validate.output).toContain('recipe[1] (extract price): its target is still "FILL IN"');
});

test('bwa auth import takes a storage state saved by codegen and refuses anything else', async () => {
  const root = tempDir('bwa-auth-import-');
  const env = { AGENT_AUTH_DIR: path.join(root, '.auth') };
  const state = {
    cookies: [
      { name: 'session', value: 's3cret', domain: 'shop.example.com', path: '/', expires: -1, httpOnly: true, secure: true, sameSite: 'Lax' },
    ],
    origins: [],
  };
  fs.writeFileSync(path.join(root, 'shop-state.json'), JSON.stringify(state));
  fs.writeFileSync(path.join(root, 'bad.json'), JSON.stringify({ cookies: 'none' }));
  const imported = await shell(`npx bwa auth import shop ${path.join(root, 'shop-state.json')}`, env);
  expect(imported.code, imported.output).toBe(0);
  expect(imported.output).toContain('auth_profile "shop": ');
  expect(imported.output).not.toContain('s3cret');
  expect(JSON.parse(fs.readFileSync(path.join(root, '.auth', 'shop.json'), 'utf8'))).toEqual(state);
  const bad = await shell(`npx bwa auth import shop ${path.join(root, 'bad.json')}`, env);
  expect(bad.code).toBe(1);
  expect(bad.output).toContain('not a Playwright storage state');
});
